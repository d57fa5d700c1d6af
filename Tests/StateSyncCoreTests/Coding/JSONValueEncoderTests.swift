import Foundation
import Testing
import StateSyncCore

/// Types shared by the encoder and decoder tests.
enum CodingFixtures {
    struct Todo: Codable, Equatable {
        var id: String
        var title: String
        var done: Bool
        var tags: [String?]
        var due: Date?
    }

    struct Board: Codable, Equatable {
        var todos: [Todo]
        var counters: [String: Int]
        var nested: [[Int]]
        var extra: JSONValue
        var ratio: Double
        var small: UInt8
    }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case rectangle(width: Int, height: Int)
        case empty
    }

    class Animal: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    final class Dog: Animal {
        var breed: String
        init(name: String, breed: String) {
            self.breed = breed
            super.init(name: name)
        }
        enum CodingKeys: String, CodingKey { case breed }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            breed = try container.decode(String.self, forKey: .breed)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(breed, forKey: .breed)
            try super.encode(to: container.superEncoder())
        }
    }

    static let board = Board(
        todos: [
            Todo(id: "t1", title: "Milk", done: false, tags: ["x", nil], due: Date(timeIntervalSince1970: 1_795_000_000)),
            Todo(id: "t2", title: "Eggs", done: true, tags: [], due: nil),
        ],
        counters: ["hits": 3],
        nested: [[1, 2], []],
        extra: ["any": [1, "thing"]],
        ratio: 0.25,
        small: 200
    )
}

@Suite struct JSONValueEncoderTests {
    @Test func encodesNestedStructsArraysOfOptionalsAndDates() throws {
        let value = try JSONValueEncoder().encode(CodingFixtures.board)
        let expected = try JSONValue(parsing: #"""
        {"counters":{"hits":3},"extra":{"any":[1,"thing"]},"nested":[[1,2],[]],"ratio":0.25,"small":200,
         "todos":[{"done":false,"due":"2026-11-18T11:06:40Z","id":"t1","tags":["x",null],"title":"Milk"},
                  {"done":true,"id":"t2","tags":[],"title":"Eggs"}]}
        """#)
        #expect(value == expected)
    }

    @Test func encodesEnumsWithAssociatedValues() throws {
        let shapes: [CodingFixtures.Shape] = [.circle(radius: 1.5), .rectangle(width: 2, height: 3), .empty]
        let value = try JSONValueEncoder().encode(shapes)
        #expect(value == (try JSONValue(parsing: #"[{"circle":{"radius":1.5}},{"rectangle":{"height":3,"width":2}},{"empty":{}}]"#)))
    }

    @Test func encodesSuperclassesThroughSuperEncoder() throws {
        let value = try JSONValueEncoder().encode(CodingFixtures.Dog(name: "Rex", breed: "Collie"))
        #expect(value == ["breed": "Collie", "super": ["name": "Rex"]])
    }

    @Test func encodesDatesByTheChosenStrategy() throws {
        let date = Date(timeIntervalSince1970: 1.5)
        var encoder = JSONValueEncoder()
        #expect(try encoder.encode(date) == "1970-01-01T00:00:01.500Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        encoder.dateCodingStrategy = .secondsSince1970
        #expect(try encoder.encode(date) == 1.5)
        encoder.dateCodingStrategy = .millisecondsSince1970
        #expect(try encoder.encode(date) == 1500)
        encoder.dateCodingStrategy = .deferredToDate
        #expect(try encoder.encode(date) == .double(date.timeIntervalSinceReferenceDate))
    }

    @Test func encodesDataURLAndJSONValueSpecially() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Data([1, 2, 3])) == "AQID")
        #expect(try encoder.encode(URL(string: "https://example.com/a?b=c")!) == "https://example.com/a?b=c")
        #expect(try encoder.encode(["v": JSONValue.double(2)]) == ["v": .double(2)])
    }

    @Test func rejectsValuesJSONCannotHoldWithTheirPath() throws {
        struct Holder: Encodable { var values: [Double] }
        let error = #expect(throws: EncodingError.self) {
            try JSONValueEncoder().encode(Holder(values: [1, .nan]))
        }
        guard case .invalidValue(_, let context)? = error else {
            Issue.record("expected .invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["values", "1"])
        #expect(context.debugDescription.contains("nan"))
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
        #expect(try JSONValueEncoder().encode(UInt64(7)) == 7)
    }

    @Test func encodesNilAsNullInContainers() throws {
        let values: [Int?] = [1, nil]
        #expect(try JSONValueEncoder().encode(values) == [1, nil])
        let none: Int? = nil
        #expect(try JSONValueEncoder().encode(none) == nil)
    }

    @Test func passesUserInfoToTypes() throws {
        struct Reader: Encodable {
            static let key = CodingUserInfoKey(rawValue: "flag")!
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
            }
        }
        var encoder = JSONValueEncoder()
        encoder.userInfo[Reader.key] = "set"
        #expect(try encoder.encode(Reader()) == "set")
    }
}
