#ifndef GEOTRIP_CHEIF_SHIM_H
#define GEOTRIP_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
