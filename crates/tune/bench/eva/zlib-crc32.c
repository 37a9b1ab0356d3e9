/* Driver: CRC-32 of a fixed buffer, whole and in two parts, then combined. */
#include "zlib.h"
static const unsigned char buf[64] = "The quick brown fox jumps over the lazy dog, twice or more.";
int main(void) {
    uLong a = crc32(0L, Z_NULL, 0);
    a = crc32(a, buf, sizeof buf);
    uLong b = crc32(0L, buf, 20);
    uLong c = crc32(0L, buf + 20, sizeof buf - 20);
    uLong d = crc32_combine(b, c, (z_off_t)(sizeof buf - 20));
    return a == d ? 0 : 1;
}
