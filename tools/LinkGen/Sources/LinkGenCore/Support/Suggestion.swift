/// "Did you mean" for misspelled keys and names.
public enum Suggestion {

  /// The candidate closest to `word`, when it is close enough to be a likely typo.
  public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let lowered = word.lowercased()
    var best: (String, Int)?
    let word = Array(lowered)
    for candidate in candidates {
      let limit = min(max(1, candidate.count / 3), (best?.1 ?? .max) - 1)
      // Cheap filters first: a length gap alone can rule a candidate out.
      guard limit >= 0, abs(candidate.count - word.count) <= limit else { continue }
      if let distance = editDistance(word, Array(candidate.lowercased()), atMost: limit) {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// " (did you mean 'x'?)" or "".
  static func hint(for word: String, in candidates: some Sequence<String>) -> String {
    closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// Levenshtein distance, or nil as soon as it must exceed `limit`: each row's
  /// minimum only grows, so a row past the limit ends the work early.
  static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
    if a.isEmpty { return b.count <= limit ? b.count : nil }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      var rowMinimum = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      previous = current
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }

}
