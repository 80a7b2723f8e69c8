#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program with its own `main` (llvm.org/docs/LibFuzzer.html,
/// "Using libFuzzer as a library"): parses libFuzzer's flags from argv and fuzzes `callback`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
