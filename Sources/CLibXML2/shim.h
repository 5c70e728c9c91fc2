#ifndef PREWARM_LINT_CLIBXML2_SHIM_H
#define PREWARM_LINT_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/// The line and column the parser is at: fields of a struct Swift sees only as opaque pointers.
static inline int prewarm_xml_line(xmlParserCtxtPtr context) {
    return (context != NULL && context->input != NULL) ? context->input->line : 0;
}
static inline int prewarm_xml_column(xmlParserCtxtPtr context) {
    return (context != NULL && context->input != NULL) ? context->input->col : 0;
}
#endif
