/// One bar of a chart as the page draws it: a rectangle whose `data-` attributes
/// carry the figure it stands for (the till's `money()` text, or units), and a
/// `<title>` saying it in words, which browsers show on hover and screen readers read.
struct SVGBar {
  /// The bar's series, a CSS class: `charged`, `refunded`, `sales`, `opening`, `closing`, `missing`.
  var series: String
  /// What the bar is of: `north, day 3`.
  var label: String
  /// The figure as printed: `22.50`, or `140` units.
  var value: String
  /// The title's words after the label: `22.50 charged`.
  var title: String
  var x: Double
  var y: Double
  var width: Double
  var height: Double

  /// The `<rect>`.
  var markup: String {
    let attributes = [
      ("class", "bar \(series)"), ("data-label", label), ("data-value", value), ("x", Markup.coordinate(x)),
      ("y", Markup.coordinate(y)), ("width", Markup.coordinate(width)), ("height", Markup.coordinate(height)),
    ]
    .map { "\($0.0)=\"\(Markup.escaped($0.1))\"" }.joined(separator: " ")
    return "<rect \(attributes)><title>\(Markup.escaped("\(label): \(title)"))</title></rect>"
  }
}

/// A `<text>` of a chart: a label or a value printed beside its bar.
struct SVGText {
  /// Its CSS class: `axis`, `name`, `value`.
  var kind: String
  var text: String
  var x: Double
  var y: Double
  /// `start`, `middle` or `end`.
  var anchor = "start"
  /// Degrees, about its own point (values above narrow bars stand on end).
  var rotation: Double = 0

  /// The `<text>`.
  var markup: String {
    let rotate =
      rotation == 0
      ? "" : " transform=\"rotate(\(Markup.coordinate(rotation)) \(Markup.coordinate(x)) \(Markup.coordinate(y)))\""
    return "<text class=\"\(kind)\" x=\"\(Markup.coordinate(x))\" y=\"\(Markup.coordinate(y))\" "
      + "text-anchor=\"\(anchor)\"\(rotate)>\(Markup.escaped(text))</text>"
  }
}
