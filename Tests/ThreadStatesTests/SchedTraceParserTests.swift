import Testing

@testable import ThreadStates

@Suite struct SchedTraceParserTests {
  @Test(
    "a sched_switch line with the TGID column gives the CPU, the µs time in ns, both threads and the state")
  func switchLine() throws {
    let line =
      "              sh-26912   (  26912) [001] d..2. 32152.516261: sched_switch: prev_comm=bash prev_pid=26912 prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0"
    let event = try #require(SchedTraceParser.parse(line: Substring(line)))
    #expect(event.ts == 32_152_516_261_000)
    #expect(event.cpu == 1)
    #expect(event.tgid == 26912)
    #expect(event.taskTid == 26912)
    #expect(
      event.kind
        == .switchOut(prev: 26912, prevComm: "bash", prevState: "R+", next: 18, nextComm: "migration/0"))
  }

  @Test("a comm with spaces and dashes is cut at the next key, not at a space; no TGID column is fine")
  func commWithSpaces() throws {
    let line =
      "  Web Content-4242  [000] d..2. 10.000001: sched_switch: prev_comm=Web Content prev_pid=4242 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120"
    let event = try #require(SchedTraceParser.parse(line: Substring(line)))
    #expect(event.tgid == nil)
    #expect(event.taskTid == 4242)
    #expect(event.ts == 10_000_001_000)
    #expect(
      event.kind
        == .switchOut(prev: 4242, prevComm: "Web Content", prevState: "D", next: 0, nextComm: "swapper/0"))
  }

  @Test(
    "wakeup, wakeup_new, fork, exec, exit and stat_runtime lines are read (runtime with or without an older kernel's vruntime); comments and other events are skipped"
  )
  func otherEvents() {
    let text = """
      # tracer: nop
      #           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION
                  bash-100   (    100) [000] ..... 1.000000: sched_process_fork: comm=bash pid=100 child_comm=bash child_pid=101
                  bash-100   (    100) [000] d..2. 1.000010: sched_wakeup_new: comm=bash pid=101 prio=120 target_cpu=001
                    sh-101   (    101) [001] ..... 1.000500: sched_process_exec: filename=/usr/bin/sh pid=101 old_pid=101
                    sh-101   (    101) [001] dNs5. 1.000600: sched_wakeup: comm=rcu_preempt pid=15 prio=120 target_cpu=000
                    sh-101   (    101) [001] ..... 1.000700: sched_migrate_task: comm=sh pid=101 prio=120 orig_cpu=1 dest_cpu=0
                    sh-101   (    101) [001] d..2. 1.000800: sched_stat_runtime: comm=sh pid=101 runtime=486414 [ns]
                    sh-101   (    101) [001] d.h1. 1.000850: sched_stat_runtime: comm=sh pid=101 runtime=50000 [ns] vruntime=9000 [ns]
                    sh-101   (    101) [001] ..... 1.000900: sched_process_exit: comm=sh pid=101 prio=120
      """
    let result = SchedTraceParser.parse(text)
    #expect(result.malformedLines == 0)
    #expect(
      result.events.map(\.kind) == [
        .processFork(parent: 100, child: 101, childComm: "bash"), .wakeup(tid: 101, comm: "bash", new: true),
        .exec(tid: 101, filename: "/usr/bin/sh"), .wakeup(tid: 15, comm: "rcu_preempt", new: false),
        .runtime(tid: 101, ns: 486_414), .runtime(tid: 101, ns: 50_000), .exit(tid: 101, comm: "sh"),
      ])
  }

  @Test("a line cut short is counted as malformed, not read")
  func malformed() {
    let text = """
                  bash-100   (    100) [000] d..2. 1.000010: sched_switch: prev_comm=bash prev_pid=100 prev_pr
                  bash-100   (    100) [0x0] d..2. 1.000010: sched_wakeup: comm=bash pid=101 prio=120 target_cpu=001
      """
    let result = SchedTraceParser.parse(text)
    #expect(result.events.isEmpty)
    #expect(result.malformedLines == 2)
  }

  @Test("a TGID column the kernel does not know (`(-------)`, the idle task's) is read as no TGID")
  func unknownGroup() throws {
    let line =
      "          <idle>-0       (-------) [000] d..2. 35440.019910: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=memfd:sealed-91 next_pid=23637 next_prio=120"
    let event = try #require(SchedTraceParser.parse(line: Substring(line)))
    #expect(event.tgid == nil)
    #expect(event.taskTid == 0)
    #expect(
      event.kind
        == .switchOut(
          prev: 0, prevComm: "swapper/0", prevState: "R", next: 23637, nextComm: "memfd:sealed-91"))
  }

  @Test("timestamps with nine decimals keep their nanoseconds")
  func nanoseconds() {
    #expect(SchedTraceParser.nanoseconds("3.000000007") == 3_000_000_007)
    #expect(SchedTraceParser.nanoseconds("3.5") == 3_500_000_000)
    #expect(SchedTraceParser.nanoseconds("3") == nil)
  }

  @Test(
    "every prefix of a line is read, skipped or malformed, never a trap; a comm or filename that spells a key or the marker does not move the numbers"
  )
  func prefixesAndHostileComms() throws {
    let lines = [
      "              sh-26912   (  26912) [001] d..2. 32152.516261: sched_switch: prev_comm=bash prev_pid=26912 prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0",
      "     x: sched_-77   (  77) [000] d..2. 1.000800: sched_stat_runtime: comm=x: sched_ pid=77 runtime=486414 [ns]",
      "          <idle>-0       (-------) [000] dNh4. 35440.019910: sched_wakeup: comm=a pid=9 b pid=9 prio=120 target_cpu=000",
    ]
    for line in lines {
      let bytes = Array(line.utf8)
      for cut in 0..<bytes.count {
        let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
        let result = SchedTraceParser.parse(prefix)
        #expect(result.events.count + result.malformedLines <= 1, "\(prefix)")
      }
      #expect(SchedTraceParser.parse(line).events.count == 1, "\(line)")
    }
    // The task's comm `x: sched_` does not move the event's name; comms that spell the keys
    // after them (at most 15 bytes) do not move the numbers.
    let runtime = try #require(SchedTraceParser.parse(line: Substring(lines[1])))
    #expect(runtime.kind == .runtime(tid: 77, ns: 486_414))
    #expect(runtime.taskTid == 77 && runtime.tgid == 77)
    let wakeup = try #require(SchedTraceParser.parse(line: Substring(lines[2])))
    #expect(wakeup.kind == .wakeup(tid: 9, comm: "a pid=9 b", new: false))
    let spoof = try #require(
      SchedTraceParser.parse(
        line:
          "  a-5 (5) [000] d..2. 1.000000: sched_wakeup: comm=a pid=9 prio=1 pid=10 prio=120 target_cpu=000"))
    #expect(spoof.kind == .wakeup(tid: 10, comm: "a pid=9 prio=1", new: false))
    let exec = try #require(
      SchedTraceParser.parse(
        line:
          "  a-5 (5) [000] ..... 1.000000: sched_process_exec: filename=/x pid=1 old_pid=1 pid=5 old_pid=5"))
    #expect(exec.kind == .exec(tid: 5, filename: "/x pid=1 old_pid=1"))
    let deadline = try #require(
      SchedTraceParser.parse(
        line:
          "  a-5 (5) [000] d..2. 1.000000: sched_switch: prev_comm=dl prev_pid=5 prev_prio=-1 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
      ))
    #expect(
      deadline.kind == .switchOut(prev: 5, prevComm: "dl", prevState: "S", next: 0, nextComm: "swapper/0"))
    let exit = try #require(
      SchedTraceParser.parse(
        line: "  a-5 (5) [000] ..... 1.000000: sched_process_exit: comm=a pid=5 prio=120 group_dead=true"))
    #expect(exit.kind == .exit(tid: 5, comm: "a"))
  }

  @Test(
    "a line whose fields can split many ways (an exec path spelling the keys a thousand times) is given up as malformed after a bounded number of tries"
  )
  func boundedSplits() {
    let noise = String(repeating: " pid=1 old_pid=x", count: 1000)
    let line = "  a-5 (5) [000] ..... 1.000000: sched_process_exec: filename=/x\(noise) pid=5 old_pid=5"
    let result = SchedTraceParser.parse(line)
    // The one split that works (the path, then pid 5, old_pid 5) lies past thousands of tries.
    #expect(result.events.isEmpty && result.malformedLines == 1)
  }
}
