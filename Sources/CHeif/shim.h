#ifndef GEOTRIP_CHEIF_SHIM_H
#define GEOTRIP_CHEIF_SHIM_H
#include <libheif/heif.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/// A HEIF file cut short, as libheif reads it through `gt_padded_reader`: the bytes that are
/// there, then `fill` bytes up to `padded`, so the boxes and the metadata items before the cut
/// are read even though the image data runs past the end. (Read with two fills, an item that
/// differs between them was cut.)
typedef struct {
    int fd;
    int64_t size;
    int64_t padded;
    int64_t position;
    unsigned char fill;
} GTPaddedFile;

static int64_t gt_padded_position(void *userdata) { return ((GTPaddedFile *)userdata)->position; }

static int gt_padded_read(void *data, size_t size, void *userdata) {
    GTPaddedFile *file = (GTPaddedFile *)userdata;
    if (file->position < 0 || (int64_t)size > file->padded - file->position) return 1;
    size_t done = 0;
    while (done < size) {
        int64_t at = file->position + (int64_t)done;
        if (at >= file->size) break;
        size_t want = size - done;
        if ((int64_t)want > file->size - at) want = (size_t)(file->size - at);
        ssize_t got = pread(file->fd, (char *)data + done, want, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // the file shrank meanwhile: the rest reads as fill too
        done += (size_t)got;
    }
    if (done < size) memset((char *)data + done, file->fill, size - done);
    file->position += (int64_t)size;
    return 0;
}

static int gt_padded_seek(int64_t position, void *userdata) {
    GTPaddedFile *file = (GTPaddedFile *)userdata;
    if (position < 0 || position > file->padded) return 1;
    file->position = position;
    return 0;
}

static enum heif_reader_grow_status gt_padded_wait(int64_t target, void *userdata) {
    return target <= ((GTPaddedFile *)userdata)->padded ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader gt_padded_reader = {1, gt_padded_position, gt_padded_read, gt_padded_seek, gt_padded_wait};

/// The table's address, which libheif keeps (with the `GTPaddedFile`) for as long as its
/// context lives: a static's, never a copy's.
static inline const struct heif_reader *gt_padded_reader_table(void) { return &gt_padded_reader; }

#endif
