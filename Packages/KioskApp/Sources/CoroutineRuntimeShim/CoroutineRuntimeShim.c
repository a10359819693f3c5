// A symbol the Swift 6.3.1 runtime does not export but release builds need.
//
// With the CoroutineAccessors feature, a class's vtable has entries for the new
// `read`/`modify` coroutine accessors. In release builds, dead-method
// elimination replaces the entries nothing calls with a placeholder record,
// `swift_deletedCalleeAllocatedCoroutineMethodErrorTwc`, that libswiftCore 6.3.1
// does not define (it has only the function of that name), so linking
// `KioskShell` (an @Observable class) fails. This defines the record. Nothing
// ever calls through it: the entries it fills are the ones dead-method
// elimination proved unreachable. Remove this target once the toolchain's
// runtime exports the symbol.
#include <stdint.h>

struct CoroutineFunctionPointer {
  int32_t relativeFunction;
  uint32_t frameSize;
};

__attribute__((visibility("default")))
const struct CoroutineFunctionPointer swift_deletedCalleeAllocatedCoroutineMethodErrorTwc = {0, 0};
