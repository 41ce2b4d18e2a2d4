#ifndef GEOTRIP_CMALLOC_SHIM_H
#define GEOTRIP_CMALLOC_SHIM_H
// glibc's allocator controls (malloc_trim), part of the C library itself.
#include <malloc.h>
#endif
