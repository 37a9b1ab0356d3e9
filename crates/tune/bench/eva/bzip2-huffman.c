/* Driver: code lengths and codes for a fixed symbol frequency table, as the compressor does. */
#include "bzlib_private.h"
void BZ2_bz__AssertH__fail(int errcode) { (void)errcode; }
static UChar len[BZ_MAX_ALPHA_SIZE];
static Int32 freq[BZ_MAX_ALPHA_SIZE];
static Int32 code[BZ_MAX_ALPHA_SIZE];
int main(void) {
    Int32 i, alphaSize = 20, minLen = 32, maxLen = 0;
    for (i = 0; i < alphaSize; i++) freq[i] = 1 + (i * 7) % 13;
    BZ2_hbMakeCodeLengths(len, freq, alphaSize, 17);
    for (i = 0; i < alphaSize; i++) {
        if (len[i] > maxLen) maxLen = len[i];
        if (len[i] < minLen) minLen = len[i];
    }
    BZ2_hbAssignCodes(code, len, minLen, maxLen, alphaSize);
    return 0;
}
