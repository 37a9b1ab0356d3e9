/* Driver: checksums of a fixed buffer, whole and in two parts, then combined. */
#include "zlib.h"
static const unsigned char buf[64] = "The quick brown fox jumps over the lazy dog, twice or more.";
int main(void) {
    uLong a = adler32(0L, Z_NULL, 0);
    a = adler32(a, buf, sizeof buf);
    uLong b = adler32(1L, buf, 20);
    uLong c = adler32(1L, buf + 20, sizeof buf - 20);
    uLong d = adler32_combine(b, c, (z_off_t)(sizeof buf - 20));
    return a == d ? 0 : 1;
}
