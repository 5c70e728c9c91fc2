/* The floor for XML inputs: libxml2 alone, doing nothing with what it parses.
 *   xml-bare-loop reader FILE   xmlTextReader pull loop (xmlReaderForFile + xmlTextReaderRead), as the issue names it
 *   xml-bare-loop push FILE     push parser fed 1 MiB chunks with empty SAX2 element/text callbacks (what prewarm-lint uses)
 * Prints MB/s and the node or callback count; built by scripts/benchmark with pkg-config libxml-2.0. */
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

static long callbacks;
static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int nb_ns,
                     const xmlChar **ns, int nb_attributes, int nb_defaulted, const xmlChar **attributes) { callbacks++; }
static void on_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) { callbacks++; }
static void on_text(void *ctx, const xmlChar *text, int length) { callbacks++; }

static double now(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return spec.tv_sec + spec.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: xml-bare-loop reader|push FILE\n"); return 64; }
    struct stat info;
    if (stat(argv[2], &info) != 0) { perror(argv[2]); return 2; }
    double megabytes = info.st_size / 1048576.0, start = now();
    long count = 0;
    if (strcmp(argv[1], "reader") == 0) {
        xmlTextReaderPtr reader = xmlReaderForFile(argv[2], NULL, XML_PARSE_NONET);
        if (!reader) return 2;
        while (xmlTextReaderRead(reader) == 1) count++;
        xmlFreeTextReader(reader);
    } else {
        xmlSAXHandler sax;
        memset(&sax, 0, sizeof sax);
        sax.initialized = XML_SAX2_MAGIC;
        sax.startElementNs = on_start;
        sax.endElementNs = on_end;
        sax.characters = on_text;
        FILE *file = fopen(argv[2], "rb");
        if (!file) return 2;
        static char chunk[1 << 20];
        xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
        xmlCtxtUseOptions(context, XML_PARSE_NONET);
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) xmlParseChunk(context, chunk, (int)got, 0);
        xmlParseChunk(context, NULL, 0, 1);
        xmlFreeParserCtxt(context);
        fclose(file);
        count = callbacks;
    }
    double elapsed = now() - start;
    printf("libxml2 %s loop: %.2f s, %.1f MB/s, %ld %s\n", argv[1], elapsed, megabytes / elapsed, count,
           strcmp(argv[1], "reader") == 0 ? "nodes" : "callbacks");
    return 0;
}
