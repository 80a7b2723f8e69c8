import CameraApp

// All the work is in the CameraApp library so tests can drive it; main only hands over.
CameraApp.main(arguments: Array(CommandLine.arguments.dropFirst()))
