import Foundation
import PackagePlugin

/// Compiles the preload library and its C companions (`Preload/`) with the toolchain's clang, so
/// that `swift build` leaves them in bench's resource folder next to its binary
/// (`.build/<config>/FirstFrame_bench.resources/`).
///
/// SwiftPM cannot build them itself: it links every library product with the Swift runtime
/// (`libswiftCore.so`, `swiftrt.o`), which a library preloaded into any program must not carry.
/// Each is plain C against libc only, optimised (`-O2`) in every build configuration, since the
/// library runs inside the app under test and its cost is part of what bench measures.
@main struct CompilePreload: BuildToolPlugin {
  /// One C file and what it becomes.
  struct Product {
    var source: String
    var output: String
    var sharedLibrary: Bool
    var extraFlags: [String]
  }

  static let products = [
    // The preload library: bound at load (-z now), so no lazy binding runs in a signal handler.
    Product(
      source: "firstframe-preload.c", output: "libfirstframe-preload.so", sharedLibrary: true,
      extraFlags: ["-Wl,-z,now"]),
    // The fake V4L2 driver the tests load after it.
    Product(
      source: "fake-v4l2-kernel.c", output: "libfirstframe-fake-v4l2.so", sharedLibrary: true,
      extraFlags: ["-pthread"]),
    // The smallest V4L2 client: the tests' app, the device-phase floor, the cost harness.
    Product(
      source: "v4l2-client.c", output: "firstframe-v4l2-client", sharedLibrary: false,
      extraFlags: ["-pthread"]),
  ]

  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let clang = try context.tool(named: "clang").url
    let folder = context.package.directoryURL.appending(path: "Preload")
    return Self.products.map { product in
      let source = folder.appending(path: product.source)
      let output = context.pluginWorkDirectoryURL.appending(path: product.output)
      var arguments = [
        "-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-fvisibility=hidden", "-fPIC",
      ]
      if product.sharedLibrary { arguments.append("-shared") }
      arguments += product.extraFlags
      arguments += ["-Wl,--as-needed", "-o", output.path, source.path, "-ldl"]
      return .buildCommand(
        displayName: "Compiling \(product.output) (Preload/\(product.source))", executable: clang,
        arguments: arguments, inputFiles: [source], outputFiles: [output])
    }
  }
}
