#ifndef PREWARM_LINT_GZIP_CHECKSUM_H
#define PREWARM_LINT_GZIP_CHECKSUM_H
#include <stddef.h>
#include <stdint.h>

/// Whether `prewarm_crc32` runs on the processor's carry-less multiply (x86-64 with PCLMULQDQ and SSE4.1): then it
/// is several times faster than zlib's `crc32` (1.2.13 has no such path), and worth a gzip reader checking its
/// members itself. Otherwise `prewarm_crc32` is zlib's `crc32_z`.
int prewarm_crc32_is_accelerated(void);

/// The CRC-32 of gzip and zlib's `crc32` (the reflected polynomial 0xEDB88320; 0 to start, and the value returned
/// to go on): `prewarm_crc32(prewarm_crc32(0, a, n), b, m)` is the CRC of `a` followed by `b`.
uint32_t prewarm_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

#endif
