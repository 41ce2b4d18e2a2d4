#ifndef GEOTRIP_CEXIF_SHIM_H
#define GEOTRIP_CEXIF_SHIM_H

#include <libexif/exif-data.h>
#include <libexif/exif-log.h>
#include <libexif/exif-utils.h>
#include <stdio.h>
#include <stdarg.h>

/// Collects the first corrupt-data message libexif logs while loading one block,
/// so the reader can turn it into a per-photo diagnostic instead of losing it.
typedef struct {
    char firstMessage[200];
    int corruptCount;
} GTExifLogSink;

static void gt_exif_log(ExifLog *log, ExifLogCode code, const char *domain,
                        const char *format, va_list args, void *data) {
    (void)log; (void)domain;
    GTExifLogSink *sink = (GTExifLogSink *)data;
    if (code != EXIF_LOG_CODE_CORRUPT_DATA && code != EXIF_LOG_CODE_NO_MEMORY) return;
    if (sink->corruptCount == 0) vsnprintf(sink->firstMessage, sizeof sink->firstMessage, format, args);
    sink->corruptCount += 1;
}

/// Loads an `Exif\0\0`-prefixed block without libexif's "follow specification" option:
/// that option runs exif_data_fix, which invents missing mandatory tags (a DateTime of
/// *now*, among others). A made-up capture time is worse than none.
static inline ExifData *gt_exif_load(const unsigned char *bytes, unsigned int size, GTExifLogSink *sink) {
    ExifData *data = exif_data_new();
    if (!data) return NULL;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    // Tags written outside the directory the standard gives them (a DateTimeOriginal in IFD0,
    // as some tools write it and exiftool reads it) are kept: the reader names each IFD it asks.
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    ExifLog *log = exif_log_new();
    if (log) {
        exif_log_set_func(log, gt_exif_log, sink);
        exif_data_log(data, log);
        exif_log_unref(log);
    }
    exif_data_load_data(data, bytes, size);
    return data;
}

/// `exif_data_get_entry` is a macro that searches every IFD; GPS tag numbers overlap the
/// Interoperability IFD's, so the reader always names the IFD.
static inline ExifEntry *gt_exif_entry(ExifData *data, ExifIfd ifd, ExifTag tag) {
    if (!data || ifd < 0 || ifd >= EXIF_IFD_COUNT || !data->ifd[ifd]) return NULL;
    return exif_content_get_entry(data->ifd[ifd], tag);
}

/// Number of entries in one IFD (0 when the IFD is absent).
static inline unsigned int gt_exif_entry_count(ExifData *data, ExifIfd ifd) {
    if (!data || ifd < 0 || ifd >= EXIF_IFD_COUNT || !data->ifd[ifd]) return 0;
    return data->ifd[ifd]->count;
}

#endif
