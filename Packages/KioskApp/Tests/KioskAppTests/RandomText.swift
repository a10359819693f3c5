import _ServiceLinkerTestSupport

/// Up to ten characters a till would rarely make and a writer must escape
/// right: quotes, backslashes, slashes, control characters, non-ASCII.
func randomAwkwardText(_ random: inout SeededGenerator) -> String {
  let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\u{01}", "\u{7f}", "é", "😀", "_", "0"]
  var scalars = String.UnicodeScalarView()
  for _ in 0..<Int.random(in: 0...10, using: &random) { scalars.append(alphabet.randomElement(using: &random)!) }
  return String(scalars)
}
