/// A coding key made at run time: object members named by string, array
/// elements by index. Used in coding paths and to encode ``JSONObject``s.
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = String(index)
        intValue = index
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    /// The key `Encoder.superEncoder()` and `Decoder.superDecoder()` use.
    static let `super` = JSONCodingKey("super")
}
