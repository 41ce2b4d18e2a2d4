#ifndef GEOTRIP_CMALLOC_SHIM_H
#define GEOTRIP_CMALLOC_SHIM_H
// glibc's allocator controls (malloc_trim), part of the C library itself. Other C libraries
// have no such header; geotrip calls it only where Glibc is.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif
