import Foundation

/// libpq's two ways of naming a server (docs/history.md): the URI (`postgresql://…`,
/// `postgres://…`) and the keyword string (`host=/run/postgresql dbname=history user=bench`),
/// and the secrets either may hold — the URI's `user:PASSWORD@`, a `password=` or
/// `sslpassword=` parameter — kept out of every line bench prints.
package enum PQConnectionInfo {
  /// libpq's connection keywords (PostgreSQL 16's `PQconndefaults`): a `--db` value whose first
  /// word is one of them, followed by `=`, is a keyword string.
  static let keywords: Set<String> = [
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
    "replication", "gssencmode", "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey",
    "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
    "require_auth", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib",
    "gssdelegation", "service", "target_session_attrs", "load_balance_hosts",
  ]

  /// The keywords whose values are secrets.
  static let secretKeywords: Set<String> = ["password", "sslpassword"]

  /// True when `text` is a URI libpq takes (`postgresql://`, `postgres://`).
  package static func isURI(_ text: String) -> Bool {
    text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
  }

  /// The first `keyword =` of `text` when it starts like a keyword string (a word of letters,
  /// digits and underscores, then `=`), else nil.
  package static func leadingKeyword(_ text: String) -> String? {
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    let word = trimmed.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    guard !word.isEmpty else { return nil }
    let rest = trimmed.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
    return rest.first == "=" ? String(word) : nil
  }

  /// The secrets `conninfo` holds (a URI's password and its `password=`/`sslpassword=`
  /// parameters, as written and percent-decoded; a keyword string's `password=` and
  /// `sslpassword=` values, unquoted), longest first; empty ones left out.
  package static func secrets(in conninfo: String) -> [String] {
    var found: [String] = []
    if isURI(conninfo), let scheme = conninfo.range(of: "://") {
      let afterScheme = conninfo[scheme.upperBound...]
      let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        found.append(String(authority[authority.index(after: colon)..<at]))
      }
      if let question = afterScheme.firstIndex(of: "?") {
        for pair in afterScheme[afterScheme.index(after: question)...].split(separator: "&") {
          guard let equals = pair.firstIndex(of: "=") else { continue }
          let key = percentDecoded(String(pair[..<equals])).lowercased()
          guard secretKeywords.contains(key) else { continue }
          found.append(String(pair[pair.index(after: equals)...]))
        }
      }
      found += found.map(percentDecoded)
    } else {
      for (key, value) in keywordPairs(conninfo) where secretKeywords.contains(key.lowercased()) {
        found.append(value)
      }
    }
    return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
  }

  /// `text` with every secret of `conninfo` and every password it spells itself (a URI's
  /// `user:…@`, a `password=…` in a query or a keyword string) replaced by `***`.
  package static func redacting(_ text: String, secretsOf conninfo: String) -> String {
    var result = masked(text)
    for secret in secrets(in: conninfo) {
      result = result.replacingAll(secret, with: "***")
    }
    return result
  }

  /// `text` with the passwords it spells replaced by `***`: a URI's `user:PASSWORD@` and the
  /// value of every `password=` (also `sslpassword=`, any case, spaces allowed around `=`; a
  /// quoted value to its closing quote, else to a space, `&`, `#` or a double quote).
  package static func masked(_ text: String) -> String {
    maskedParameters(maskedUserInfo(text))
  }

  /// Every `scheme://user:PASSWORD@` in `text` with its password replaced.
  private static func maskedUserInfo(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let scheme = rest.range(of: "://") {
      result += rest[..<scheme.upperBound]
      rest = rest[scheme.upperBound...]
      let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != " " && $0 != "\"" && $0 != "'" }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        result += rest[...colon] + "***"
        rest = rest[at...]
      }
    }
    return result + rest
  }

  /// Every `password=VALUE` in `text` with its value replaced.
  private static func maskedParameters(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let word = rest.range(of: "password", options: .caseInsensitive) {
      result += rest[..<word.upperBound]
      rest = rest[word.upperBound...]
      let spaces = rest.prefix { $0 == " " || $0 == "\t" }
      guard rest.dropFirst(spaces.count).first == "=" else { continue }
      var after = rest.dropFirst(spaces.count + 1)
      let spacesAfter = after.prefix { $0 == " " || $0 == "\t" }
      after = after.dropFirst(spacesAfter.count)
      result += spaces + "=" + spacesAfter + "***"
      if after.first == "'" {
        var escaped = false
        var end = after.index(after: after.startIndex)
        while end < after.endIndex, escaped || after[end] != "'" {
          escaped = !escaped && after[end] == "\\"
          end = after.index(after: end)
        }
        rest = end < after.endIndex ? after[after.index(after: end)...] : after[end...]
      } else {
        rest = after.drop { !$0.isWhitespace && $0 != "&" && $0 != "#" && $0 != "\"" }
      }
    }
    return result + rest
  }

  /// The `keyword=value` pairs of a keyword string, values unquoted (`'…'` with `\'` and `\\`),
  /// as libpq reads them; what does not parse ends the list.
  static func keywordPairs(_ conninfo: String) -> [(String, String)] {
    var pairs: [(String, String)] = []
    var rest = Substring(conninfo)
    while true {
      rest = rest.drop { $0.isWhitespace }
      let key = rest.prefix { !$0.isWhitespace && $0 != "=" }
      guard !key.isEmpty else { return pairs }
      rest = rest.dropFirst(key.count).drop { $0.isWhitespace }
      guard rest.first == "=" else { return pairs }
      rest = rest.dropFirst().drop { $0.isWhitespace }
      let quoted = rest.first == "'"
      if quoted { rest = rest.dropFirst() }
      var value = ""
      while let c = rest.first, quoted ? c != "'" : !c.isWhitespace {
        if c == "\\", let next = rest.dropFirst().first {
          value.append(next)
          rest = rest.dropFirst(2)
        } else {
          value.append(c)
          rest = rest.dropFirst()
        }
      }
      if quoted { rest = rest.dropFirst() }
      pairs.append((String(key), value))
    }
  }

  /// `text` with `%XX` escapes decoded (as UTF-8; left as written where they do not decode).
  static func percentDecoded(_ text: String) -> String {
    text.removingPercentEncoding ?? text
  }
}

extension String {
  /// `self` with every occurrence of `target` (not empty) replaced by `replacement`.
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = Substring(self)
    while let found = rest.range(of: target) {
      result += rest[..<found.lowerBound] + replacement
      rest = rest[found.upperBound...]
    }
    return result + rest
  }
}
