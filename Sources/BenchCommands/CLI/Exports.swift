// The option table and parser are shared with camera-app; BenchKit's commands use them unqualified.
@_exported import CommandLineKit
