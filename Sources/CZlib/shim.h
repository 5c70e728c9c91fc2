#ifndef PREWARM_LINT_CZLIB_SHIM_H
#define PREWARM_LINT_CZLIB_SHIM_H
#include <zlib.h>

/// `inflateInit2` is a macro in zlib.h, so Swift cannot call it: this wrapper can be.
static inline int prewarm_inflate_init_gzip(z_streamp stream) {
    // 15 window bits + 32: detect a gzip or zlib header automatically.
    return inflateInit2(stream, 15 + 32);
}
#endif
