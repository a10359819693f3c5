// CRC-32C (Castagnoli) with the processor's own instruction, where it has one.
// The journal's Swift code (CRC32C.swift) checks `crc32c_hardware_available`
// once and falls back to its table otherwise; both give the same checksums.
#ifndef CRC32C_HARDWARE_H
#define CRC32C_HARDWARE_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this processor has a CRC-32C instruction this build can use (SSE 4.2 on x86-64), 0 otherwise.
int crc32c_hardware_available(void);

/// The running CRC after `length` bytes at `bytes`, continuing from `crc` (0 to
/// start), as `CRC32C.update` computes it. Only when `crc32c_hardware_available()`.
uint32_t crc32c_hardware_update(uint32_t crc, const void *bytes, size_t length);

#endif
