#ifndef GEOTRIP_CXML2_SHIM_H
#define GEOTRIP_CXML2_SHIM_H

#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, and then libxml/encoding.h includes the system's ICU headers,
 * whose UErrorCode clashes with the one Foundation's own ICU module defines. geotrip never
 * touches an encoding handler (the only struct that changes: it loses two trailing pointers),
 * so the ICU part of the headers is left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/// Whether the document has been well-formed so far. Namespace errors (an undeclared prefix)
/// do not clear it: libxml2 reports them and reads on, with no namespace for the element.
static inline int gt_xml_well_formed(xmlParserCtxtPtr ctxt) {
    return ctxt ? ctxt->wellFormed : 0;
}

/// The line the parser has reached.
static inline int gt_xml_line(xmlParserCtxtPtr ctxt) {
    return ctxt ? xmlSAX2GetLineNumber(ctxt) : 0;
}

#endif
