import Testing
import StateSyncCore

/// Hand-written `Codable` implementations that use every kind of container,
/// as synthesized conformances do not.
@Suite struct JSONValueCodingContainerTests {
    struct Envelope: Codable, Equatable {
        var kind: String
        var point: (x: Int, y: Int)
        var items: [Int8]
        var parent: String

        enum Keys: String, CodingKey { case kind, body }
        enum BodyKeys: String, CodingKey { case point, items }
        enum PointKeys: String, CodingKey { case x, y }

        init(kind: String, point: (x: Int, y: Int), items: [Int8], parent: String) {
            self.kind = kind
            self.point = point
            self.items = items
            self.parent = parent
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(kind, forKey: .kind)
            var body = container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
            var point = body.nestedUnkeyedContainer(forKey: .point)
            try point.encode(self.point.x)
            var y = point.nestedContainer(keyedBy: PointKeys.self)
            try y.encode(self.point.y, forKey: .y)
            var items = body.nestedUnkeyedContainer(forKey: .items)
            for item in self.items { try items.encode(item) }
            var nested = items.nestedUnkeyedContainer()
            try nested.encodeNil()
            try parent.encode(to: items.superEncoder())
            try "below".encode(to: container.superEncoder())
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            kind = try container.decode(String.self, forKey: .kind)
            let body = try container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
            var point = try body.nestedUnkeyedContainer(forKey: .point)
            let x = try point.decode(Int.self)
            let y = try point.nestedContainer(keyedBy: PointKeys.self).decode(Int.self, forKey: .y)
            self.point = (x, y)
            var items = try body.nestedUnkeyedContainer(forKey: .items)
            var decoded: [Int8] = []
            while let count = items.count, items.currentIndex < count - 2 {
                decoded.append(try items.decode(Int8.self))
            }
            self.items = decoded
            var nested = try items.nestedUnkeyedContainer()
            #expect(try nested.decodeNil())
            parent = try String(from: items.superDecoder())
            #expect(try String(from: container.superDecoder()) == "below")
            #expect(container.allKeys.map(\.stringValue).sorted() == ["body", "kind"])
        }

        static func == (lhs: Envelope, rhs: Envelope) -> Bool {
            lhs.kind == rhs.kind && lhs.point == rhs.point && lhs.items == rhs.items && lhs.parent == rhs.parent
        }
    }

    let envelope = Envelope(kind: "demo", point: (x: 1, y: 2), items: [-3, 4], parent: "up")

    @Test func everyContainerKindEncodesWhereItWasCreated() throws {
        let value = try JSONValueEncoder().encode(envelope)
        let expected = try JSONValue(parsing: #"""
        {"body":{"items":[-3,4,[null],"up"],"point":[1,{"y":2}]},"kind":"demo","super":"below"}
        """#)
        #expect(value == expected)
    }

    @Test func everyContainerKindDecodes() throws {
        let value = try JSONValueEncoder().encode(envelope)
        #expect(try JSONValueDecoder().decode(Envelope.self, from: value) == envelope)
    }

    @Test func nestedErrorsCarryTheFullCodingPath() throws {
        let value = try JSONValue(parsing: #"""
        {"body":{"items":[-3,400,[null],"up"],"point":[1,{"y":2}]},"kind":"demo","super":"below"}
        """#)
        let error = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Envelope.self, from: value) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["body", "items", "1"])
        #expect(context.debugDescription == "number 400 does not fit in Int8")
    }

    @Test func containerOfTheWrongKindIsATypeMismatch() {
        let error = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Envelope.self, from: ["kind": "demo", "body": [1, 2]])
        }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["body"])
        #expect(context.debugDescription == "expected an object but found array [1,2]")
    }
}
