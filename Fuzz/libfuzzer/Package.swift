// swift-tools-version:6.0
//
// The libFuzzer build of FirstFrame's fuzz targets (Sources/FuzzTargets in the main package, two
// folders up). Not part of the main build: it links only with `-sanitize=fuzzer`. Build and run
// it with scripts/fuzz (see Fuzz/README.md).
import PackageDescription

let package = Package(
  name: "FirstFrameFuzz",
  dependencies: [.package(name: "FirstFrame", path: "../..")],
  targets: [
    // libFuzzer's driver entry point, declared for Swift.
    .target(name: "CLibFuzzer"),
    .executableTarget(
      name: "firstframe-fuzz",
      dependencies: ["CLibFuzzer", .product(name: "FuzzTargets", package: "FirstFrame")])
  ],
  swiftLanguageModes: [.v6]
)
