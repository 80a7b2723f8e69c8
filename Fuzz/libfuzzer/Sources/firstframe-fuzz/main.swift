import CLibFuzzer
import FuzzTargets

#if canImport(Glibc)
  import Glibc
#endif

// libFuzzer's entry points. The target is the executable's name after `fuzz-` (scripts/fuzz
// makes `fuzz-trace`, `fuzz-v4l2`, … links to this binary), or $FIRSTFRAME_FUZZ_TARGET; every
// other argument is libFuzzer's.
//
// The top-level code is this program's `main` when the linker picks it (SwiftPM's debug builds
// rename it and point `main` at it): it hands over to libFuzzer's driver. Otherwise libFuzzer's
// own `main` runs; either way libFuzzer calls the two functions below.

nonisolated(unsafe) var selected = FuzzTarget.trace

/// libFuzzer calls this once, before fuzzing: picks the target from the program's name or the
/// environment; exits with status 2 when neither names one.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  let program = argv.pointee?.pointee.map { String(cString: $0) } ?? ""
  let base = program.split(separator: "/").last.map(String.init) ?? program
  let name =
    base.hasPrefix("fuzz-")
    ? String(base.dropFirst(5)) : getenv("FIRSTFRAME_FUZZ_TARGET").map { String(cString: $0) }
  guard let name, let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    let line = "firstframe-fuzz: run as fuzz-TARGET or set FIRSTFRAME_FUZZ_TARGET to one of: \(names)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
  }
  selected = target
  return 0
}

/// libFuzzer calls this with every input: runs it through the selected target, which traps on a
/// problem so that libFuzzer records the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  selected.fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
