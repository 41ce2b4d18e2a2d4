#ifndef GEOTRIP_CMARKGFM_SHIM_H
#define GEOTRIP_CMARKGFM_SHIM_H

// GitHub's CommonMark parser and its extensions (strikethrough, autolinks, tables, task
// lists), which turn a person's notes into the trip map's HTML.
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <stdlib.h>

#endif
