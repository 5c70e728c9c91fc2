// gzip's CRC-32 folded 64 bytes at a time with carry-less multiplies (the method of Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel, 2009). Written here because zlib 1.2.13,
// the system zlib this package links, computes it a few bytes a cycle, and checking the CRC took a fifth of the
// thread inflating a `.gz` log; zlib-ng, Chromium's zlib and ISA-L have such a path, but none is a dependency.
// The constants are x^(k) mod P(x) for the distances folded over, bit-reflected, for P = 0x104C11DB7.
#include "gzip_checksum.h"
#include <zlib.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

#define PREWARM_FOLDING __attribute__((target("pclmul,sse4.1")))

// Folds `x` (128 bits) over 128 bits with the pair of constants `k` and adds `next`.
PREWARM_FOLDING static inline __m128i fold(__m128i x, __m128i k, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(x, k, 0x00);
    __m128i high = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

// The CRC (not inverted: the caller inverts before and after) of `count` bytes, a multiple of 16 and at least 64.
PREWARM_FOLDING static uint32_t fold_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    const __m128i fold_by_four = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
    const __m128i fold_by_one = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    const __m128i reduce_96 = _mm_set_epi64x(0, 0x163cd6124);
    const __m128i barrett = _mm_set_epi64x(0x1f7011641, 0x1db710641);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);

    __m128i x1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)crc));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(bytes + 48));
    bytes += 64;
    count -= 64;
    while (count >= 64) {
        x1 = fold(x1, fold_by_four, _mm_loadu_si128((const __m128i *)bytes));
        x2 = fold(x2, fold_by_four, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        x3 = fold(x3, fold_by_four, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        x4 = fold(x4, fold_by_four, _mm_loadu_si128((const __m128i *)(bytes + 48)));
        bytes += 64;
        count -= 64;
    }
    // Four lanes into one, then the 16-byte blocks left.
    x1 = fold(x1, fold_by_one, x2);
    x1 = fold(x1, fold_by_one, x3);
    x1 = fold(x1, fold_by_one, x4);
    while (count >= 16) {
        x1 = fold(x1, fold_by_one, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        count -= 16;
    }
    // 128 bits to 96, to 64, then Barrett's reduction to 32.
    __m128i x = _mm_xor_si128(_mm_clmulepi64_si128(x1, fold_by_one, 0x10), _mm_srli_si128(x1, 8));
    x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), reduce_96, 0x00), _mm_srli_si128(x, 4));
    __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(x, t), 1);
}

// -1 until asked; read and written atomically, since several inputs may be inflated on threads of their own.
static int accelerated = -1;

int prewarm_crc32_is_accelerated(void) {
    int known = __atomic_load_n(&accelerated, __ATOMIC_RELAXED);
    if (known < 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        // CPUID leaf 1: ECX bit 1 is PCLMULQDQ, bit 19 SSE4.1.
        known = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 1)) && (ecx & (1u << 19)) ? 1 : 0;
        __atomic_store_n(&accelerated, known, __ATOMIC_RELAXED);
    }
    return known;
}

uint32_t prewarm_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    if (count >= 64 && prewarm_crc32_is_accelerated()) {
        size_t folded = count & ~(size_t)15;
        crc = ~fold_crc32(~crc, bytes, folded);
        bytes += folded;
        count -= folded;
    }
    return count == 0 ? crc : (uint32_t)crc32_z(crc, bytes, count);
}

#else

int prewarm_crc32_is_accelerated(void) { return 0; }

uint32_t prewarm_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    return (uint32_t)crc32_z(crc, bytes, count);
}

#endif
