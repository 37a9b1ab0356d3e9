/* Driver: builds the fixed-Huffman literal/length and distance tables as inflate does. */
#include "zutil.h"
#include "inftrees.h"
static code table[ENOUGH];
static unsigned short lens[320], work[288];
int main(void) {
    unsigned sym = 0, bits;
    code *next = table;
    int ret;
    while (sym < 144) lens[sym++] = 8;
    while (sym < 256) lens[sym++] = 9;
    while (sym < 280) lens[sym++] = 7;
    while (sym < 288) lens[sym++] = 8;
    bits = 9;
    ret = inflate_table(LENS, lens, 288, &next, &bits, work);
    if (ret) return 1;
    sym = 0;
    while (sym < 32) lens[sym++] = 5;
    bits = 5;
    ret = inflate_table(DISTS, lens, 32, &next, &bits, work);
    return ret;
}
