#ifndef GEOTRIP_CTURBOJPEG_SHIM_H
#define GEOTRIP_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
