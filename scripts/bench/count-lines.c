/* The physical floor of reading a log: read(2) in 1 MiB pieces and count line feeds with memchr, nothing else.
 * scripts/peers prints its time beside prewarm-lint's (with `cat FILE > /dev/null`: the kernel's copy alone).
 *
 *   gcc -O2 -o count-lines scripts/bench/count-lines.c && ./count-lines FILE
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: count-lines FILE\n"); return 64; }
    int descriptor = open(argv[1], O_RDONLY);
    if (descriptor < 0) { perror(argv[1]); return 2; }
    static char buffer[1 << 20];
    unsigned long long lines = 0;
    for (;;) {
        ssize_t count = read(descriptor, buffer, sizeof buffer);
        if (count < 0) { perror(argv[1]); return 2; }
        if (count == 0) break;
        const char *at = buffer, *end = buffer + count;
        while ((at = memchr(at, '\n', (size_t)(end - at))) != NULL) { lines++; at++; }
    }
    printf("%llu\n", lines);
    return 0;
}
