#ifndef GEOTRIP_CRENAME_SHIM_H
#define GEOTRIP_CRENAME_SHIM_H
// Linux's renameat2(2) flags, through the system call itself: glibc declares renameat2 only
// with _GNU_SOURCE, which a Swift module cannot set, and older C libraries not at all. Where
// there is no such call, or the file system refuses the flag, these fail with ENOSYS or
// EINVAL and the caller falls back to rename(2).
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if __has_include(<sys/syscall.h>)
#include <sys/syscall.h>
#endif

// Swaps the two names atomically (RENAME_EXCHANGE): both must exist.
static inline int geotrip_rename_exchange(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// Renames `from` to `to` unless `to` exists (RENAME_NOREPLACE): EEXIST then.
static inline int geotrip_rename_noreplace(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}
#endif
