#ifndef GEOTRIP_CRENAME_SHIM_H
#define GEOTRIP_CRENAME_SHIM_H
// Linux's renameat2(2), through the system call itself: glibc declares renameat2 only with
// _GNU_SOURCE, which a Swift module cannot set, and older C libraries not at all. `flags` is
// RENAME_NOREPLACE (1: fails with EEXIST when `to` exists) or RENAME_EXCHANGE (2: swaps the two
// names at once; both must exist). Where there is no such call, or the file system refuses the
// flag, it fails with ENOSYS or EINVAL and the caller falls back to rename(2).
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if __has_include(<sys/syscall.h>)
#include <sys/syscall.h>
#endif

static inline int geotrip_renameat2(const char *from, const char *to, unsigned int flags) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
#else
    errno = ENOSYS;
    return -1;
#endif
}
#endif
