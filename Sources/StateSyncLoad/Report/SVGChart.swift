/// A line chart drawn as inline SVG (no scripts, no fonts or files from
/// the network): axes with ticks, one polyline per series, a legend.
struct SVGChart {
    struct Series {
        var name: String
        var color: String
        var points: [(x: Double, y: Double)]
    }

    /// A tick on the x axis: where, and its label.
    struct Tick {
        var value: Double
        var label: String
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    /// Ticks on the x axis; `nil` spaces five evenly.
    var xTicks: [Tick]?

    private let width = 720.0
    private let height = 300.0
    private let left = 64.0
    private let right = 16.0
    private let top = 36.0
    private let bottom = 44.0

    func render() -> String {
        let all = series.flatMap(\.points)
        let xMin = xTicks?.map(\.value).min() ?? all.map(\.x).min() ?? 0
        let xMax = max(xTicks?.map(\.value).max() ?? all.map(\.x).max() ?? 1, xMin + 1e-9)
        let yMax = Self.niceCeiling(all.map(\.y).max() ?? 1)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func px(_ x: Double) -> String { Self.coordinate(left + (min(max(x, xMin), xMax) - xMin) / (xMax - xMin) * plotWidth) }
        func py(_ y: Double) -> String { Self.coordinate(top + plotHeight - min(y, yMax) / yMax * plotHeight) }

        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" font-family="sans-serif" font-size="11">"##
        svg += ##"<text x="\##(left)" y="18" font-size="14" font-weight="bold">\##(HTMLText.escape(title))</text>"##
        // Horizontal grid and y labels.
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            let y = top + plotHeight - value / yMax * plotHeight
            svg += ##"<line x1="\##(left)" y1="\##(Self.coordinate(y))" x2="\##(width - right)" y2="\##(Self.coordinate(y))" stroke="#ddd"/>"##
            svg += ##"<text x="\##(left - 6)" y="\##(Self.coordinate(y + 4))" text-anchor="end">\##(Self.label(value))</text>"##
        }
        let ticks = xTicks ?? (0...4).map { step in
            let value = xMin + (xMax - xMin) * Double(step) / 4
            return Tick(value: value, label: Self.label(value))
        }
        for tick in ticks {
            let x = px(tick.value)
            svg += ##"<line x1="\##(x)" y1="\##(top + plotHeight)" x2="\##(x)" y2="\##(top + plotHeight + 4)" stroke="#333"/>"##
            svg += ##"<text x="\##(x)" y="\##(top + plotHeight + 16)" text-anchor="middle">\##(HTMLText.escape(tick.label))</text>"##
        }
        svg += ##"<line x1="\##(left)" y1="\##(top + plotHeight)" x2="\##(width - right)" y2="\##(top + plotHeight)" stroke="#333"/>"##
        svg += ##"<line x1="\##(left)" y1="\##(top)" x2="\##(left)" y2="\##(top + plotHeight)" stroke="#333"/>"##
        svg += ##"<text x="\##(left + plotWidth / 2)" y="\##(height - 8)" text-anchor="middle">\##(HTMLText.escape(xLabel))</text>"##
        svg += ##"<text transform="translate(14 \##(top + plotHeight / 2)) rotate(-90)" text-anchor="middle">\##(HTMLText.escape(yLabel))</text>"##
        for (number, line) in series.enumerated() {
            let points = line.points.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " ")
            svg += ##"<polyline fill="none" stroke="\##(line.color)" stroke-width="2" points="\##(points)"/>"##
            let legendX = width - right - 150
            let legendY = top + 14 * Double(number)
            svg += ##"<line x1="\##(legendX)" y1="\##(legendY)" x2="\##(legendX + 18)" y2="\##(legendY)" stroke="\##(line.color)" stroke-width="3"/>"##
            svg += ##"<text x="\##(legendX + 24)" y="\##(legendY + 4)">\##(HTMLText.escape(line.name))</text>"##
        }
        return svg + "</svg>"
    }

    /// A coordinate with one decimal (enough for a 720-unit-wide drawing).
    static func coordinate(_ value: Double) -> String {
        ResultText.fixed(value, 1)
    }

    /// 1, 2 or 5 times a power of ten, at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for factor in [1.0, 2, 5, 10] where magnitude * factor >= value {
            return magnitude * factor
        }
        return magnitude * 10
    }

    static func label(_ value: Double) -> String {
        if value == value.rounded() { return ResultText.grouped(Int(value)) }
        return ResultText.fixed(value, value < 1 ? 3 : 1)
    }
}

/// Escapes text for HTML and SVG.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
