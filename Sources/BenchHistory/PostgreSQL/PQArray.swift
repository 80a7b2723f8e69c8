/// PostgreSQL's array literals, for passing a column of values as one text parameter.
enum PQArray {
  /// `{"a","b\"c",NULL}`: every element quoted, with `"` and `\` escaped by a backslash; nil is
  /// NULL. PostgreSQL casts it to the array type the statement names (`$1::bigint[]`).
  static func literal(_ elements: [String?]) -> String {
    var text = "{"
    for (i, element) in elements.enumerated() {
      if i > 0 { text += "," }
      guard let element else {
        text += "NULL"
        continue
      }
      text += "\""
      if element.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        for character in element {
          if character == "\"" || character == "\\" { text += "\\" }
          text.append(character)
        }
      } else {
        text += element  // the common case (numbers, phase names): nothing to escape
      }
      text += "\""
    }
    return text + "}"
  }
}
