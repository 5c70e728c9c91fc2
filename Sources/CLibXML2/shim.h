#ifndef PREWARM_LINT_CLIBXML2_SHIM_H
#define PREWARM_LINT_CLIBXML2_SHIM_H
/* Debian's libxml2 is built with ICU, and its encoding.h then includes the system's <unicode/ucnv.h>,
 * whose types clash with the ICU copy Foundation ships (`'UErrorCode' has different definitions in
 * different modules` in any Swift module importing both). prewarm-lint never touches the ICU members
 * of xmlCharEncodingHandler (it only ever holds pointers to one), so they are left out of its view. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
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
