// The option table and parser are shared with camera-app; BenchKit's commands use them unqualified.
@_exported import CommandLineKit
// The jobs the commands run (their options, the pipeline, bisect), seen by the commands' users as
// the commands' own (`RunCommand.Options` is `RunOptions`).
@_exported import BenchJobs
