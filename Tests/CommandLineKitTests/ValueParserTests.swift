import CommandLineKit
import Testing

@Suite struct ValueParserTests {
  enum Fruit: String, CaseIterable, Sendable {
    case apple, pear, plum
  }

  /// The error line `parser` gives for `text` as option `name`, or nil when it parses.
  func message<Value>(_ parser: ValueParser<Value>, _ text: String, name: String = "--n") -> String? {
    do {
      _ = try parser.parse(text, name)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("a whole number in range parses; outside it the error names the bound and the text")
  func integers() throws {
    let runs = ValueParser.integer(in: 1...100_000)
    #expect(try runs.parse("20", "--runs") == 20)
    #expect(try runs.parse("100000", "--runs") == 100_000)
    #expect(message(runs, "0", name: "--runs") == "--runs must be at least 1, not 0")
    #expect(message(runs, "100001", name: "--runs") == "--runs must be at most 100000, not 100001")
    #expect(message(runs, "abc", name: "--runs") == "--runs wants a whole number, not 'abc'")
    #expect(message(runs, "1.5", name: "--runs") == "--runs wants a whole number, not '1.5'")
    #expect(message(runs, "", name: "--runs") == "--runs wants a whole number, not ''")
  }

  @Test("a number too large for Int is reported against the bound, not as a typo, and does not trap")
  func hugeIntegers() {
    let runs = ValueParser.integer(in: 1...100_000)
    #expect(
      message(runs, "999999999999", name: "--runs") == "--runs must be at most 100000, not 999999999999")
    #expect(
      message(runs, "99999999999999999999999999", name: "--runs")
        == "--runs must be at most 100000, not 99999999999999999999999999")
    #expect(
      message(runs, "+99999999999999999999999999", name: "--runs")
        == "--runs must be at most 100000, not +99999999999999999999999999")
    #expect(
      message(runs, "-99999999999999999999999999", name: "--runs")
        == "--runs must be at least 1, not -99999999999999999999999999")
    #expect(message(runs, "--5", name: "--runs") == "--runs wants a whole number, not '--5'")
    #expect(message(ValueParser.integer(in: Int.min...Int.max), String(Int.max)) == nil)
  }

  @Test("a number's bounds can be inclusive or exclusive, and it must be finite")
  func numbers() throws {
    let hz = ValueParser.number(in: NumberRange(atLeast: 1, atMost: 1000))
    #expect(try hz.parse("1", "--hz") == 1)
    #expect(try hz.parse("1000", "--hz") == 1000)
    #expect(message(hz, "0.5", name: "--hz") == "--hz must be at least 1, not 0.5")
    #expect(message(hz, "1e300", name: "--hz") == "--hz must be at most 1000, not 1e300")
    #expect(message(hz, "inf", name: "--hz") == "--hz must be at most 1000, not inf")
    #expect(message(hz, "nan", name: "--hz") == "--hz wants a number, not 'nan'")
    #expect(message(hz, "fast", name: "--hz") == "--hz wants a number, not 'fast'")

    let alpha = ValueParser.number(in: NumberRange(greaterThan: 0, below: 1))
    #expect(try alpha.parse("0.05", "--alpha") == 0.05)
    #expect(message(alpha, "0", name: "--alpha") == "--alpha must be greater than 0, not 0")
    #expect(message(alpha, "1", name: "--alpha") == "--alpha must be below 1, not 1")

    let timeout = ValueParser.number(in: NumberRange(greaterThan: 0, atMost: 3600))
    #expect(message(timeout, "1e20", name: "--t") == "--t must be at most 3600, not 1e20")

    let unbounded = ValueParser.number(in: NumberRange(atLeast: 0))
    #expect(try unbounded.parse("1e300", "--pct") == 1e300)
    #expect(message(unbounded, "inf", name: "--pct") == "--pct wants a number, not 'inf'")
    #expect(message(unbounded, "-1", name: "--pct") == "--pct must be at least 0, not -1")
  }

  @Test("lists keep the existing error texts, drop duplicates and keep the order")
  func lists() throws {
    let fruit = ValueParser<[Fruit]>.list()
    #expect(try fruit.parse("plum, apple,plum", "--fruits") == [.plum, .apple])
    #expect(
      message(fruit, "apple,kiwi", name: "--fruits")
        == "unknown fruit 'kiwi' for --fruits (choose from apple, pear, plum)")
    #expect(
      message(fruit, "apple,,pear", name: "--fruits")
        == "--fruits wants a comma-separated list of apple, pear, plum")
    let some = ValueParser<[Fruit]>.list(of: [.apple, .pear])
    #expect(
      message(some, "plum", name: "--fruits") == "unknown fruit 'plum' for --fruits (choose from apple, pear)"
    )
    #expect(some.describe([.apple, .pear]) == "apple,pear")

    let names = ValueParser<[String]>.list(of: ["a", "b"])
    #expect(try names.parse("b,a,b", "--phases") == ["b", "a"])
    #expect(message(names, "c", name: "--phases") == "unknown phase 'c' for --phases (choose from a, b)")
  }

  @Test("a choice is one name of a type's cases")
  func choices() throws {
    let fruit = ValueParser<Fruit>.choice()
    #expect(try fruit.parse("pear", "--format") == .pear)
    #expect(
      message(fruit, "yaml", name: "--format")
        == "unknown format 'yaml' for --format (choose from apple, pear, plum)")
    #expect(message(fruit, "apple,pear", name: "--format") != nil)
    #expect(message(ValueParser<Fruit>.choice(of: [.apple]), "pear", name: "--f") != nil)
  }

  @Test("a converting parser keeps its initialiser's line, and optional parsers describe nil as nothing")
  func converting() throws {
    struct Problem: Error, CustomStringConvertible {
      var description: String { "unknown camera 'usb'" }
    }
    let camera = ValueParser<String>.converting { (text: String) throws(Problem) -> String in
      guard text == "synthetic" else { throw Problem() }
      return text
    }
    #expect(message(camera, "usb") == "unknown camera 'usb'")
    #expect(try camera.parse("synthetic", "--camera") == "synthetic")
    #expect(camera.optional.describe(nil) == nil)
    #expect(camera.optional.describe("synthetic") == "synthetic")
    #expect(ValueParser.number(in: NumberRange(atLeast: 0)).describe(60) == "60")
    #expect(ValueParser.number(in: NumberRange(atLeast: 0)).describe(0.05) == "0.05")
  }
}
