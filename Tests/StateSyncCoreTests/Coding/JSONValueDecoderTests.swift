import Foundation
import Testing
import StateSyncCore

@Suite struct JSONValueDecoderTests {
    @Test func roundTripsThroughTheEncoder() throws {
        let value = try JSONValueEncoder().encode(CodingFixtures.board)
        #expect(try JSONValueDecoder().decode(CodingFixtures.Board.self, from: value) == CodingFixtures.board)
        let shapes: [CodingFixtures.Shape] = [.circle(radius: 1.5), .rectangle(width: 2, height: 3), .empty]
        #expect(try JSONValueDecoder().decode([CodingFixtures.Shape].self, from: JSONValueEncoder().encode(shapes)) == shapes)
        let dog = try JSONValueDecoder().decode(CodingFixtures.Dog.self, from: ["breed": "Collie", "super": ["name": "Rex"]])
        #expect(dog.name == "Rex" && dog.breed == "Collie")
    }

    @Test func agreesWithFoundationsCoders() throws {
        let foundationEncoder = JSONEncoder()
        foundationEncoder.dateEncodingStrategy = .iso8601
        let text = try foundationEncoder.encode(CodingFixtures.board)
        let viaFoundation = try JSONDecoder().decode(JSONValue.self, from: text)
        let board = try JSONValueDecoder().decode(CodingFixtures.Board.self, from: viaFoundation)
        #expect(board.todos.map(\.title) == ["Milk", "Eggs"])
        #expect(board.extra == ["any": [1, "thing"]])
        // JSONValue encodes through a foreign encoder too.
        let encoded = try JSONEncoder().encode(JSONValue(parsing: #"{"a":[1,2.5,"x",null,true]}"#))
        #expect(try JSONValue(parsing: Array(encoded)) == ["a": [1, 2.5, "x", nil, true]])
    }

    @Test func integerRangeIsChecked() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(UInt8.self, from: 200) == 200)
        #expect(try decoder.decode(UInt8.self, from: 3.0) == 3)
        #expect(try decoder.decode(Double.self, from: 3) == 3)
        let error = #expect(throws: DecodingError.self) {
            try decoder.decode([String: UInt8].self, from: ["level": 300])
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == "number 300 does not fit in UInt8")
        #expect(context.codingPath.map(\.stringValue) == ["level"])
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 1.5) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: 1e300) }
    }

    @Test func errorsCarryTheCodingPath() throws {
        let value: JSONValue = ["todos": [["id": "t1", "title": "Milk", "done": "no", "tags": []]],
                                "counters": [:], "nested": [], "extra": nil, "ratio": 1, "small": 1]
        let error = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(CodingFixtures.Board.self, from: value)
        }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["todos", "0", "done"])
        #expect(context.debugDescription == #"expected a boolean but found string "no""#)
    }

    @Test func missingAndNullValuesAreReportedDistinctly() throws {
        struct Needs: Decodable { var a: Int }
        struct Optional: Decodable, Equatable { var a: Int? }
        let missing = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Needs.self, from: [:]) }
        guard case .keyNotFound(let key, _)? = missing else {
            Issue.record("expected keyNotFound")
            return
        }
        #expect(key.stringValue == "a")
        let null = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Needs.self, from: ["a": nil]) }
        guard case .valueNotFound? = null else {
            Issue.record("expected valueNotFound")
            return
        }
        #expect(try JSONValueDecoder().decode(Optional.self, from: [:]) == Optional(a: nil))
        #expect(try JSONValueDecoder().decode(Optional.self, from: ["a": nil]) == Optional(a: nil))
        #expect(try JSONValueDecoder().decode([Int?].self, from: [1, nil, 3]) == [1, nil, 3])
    }

    @Test func readsDatesDataAndURLs() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Date.self, from: "2026-11-21T10:00:00Z") == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(try decoder.decode(Date.self, from: "1970-01-01T00:00:01.250Z") == Date(timeIntervalSince1970: 1.25))
        let bad = #expect(throws: DecodingError.self) { try decoder.decode(Date.self, from: "yesterday") }
        guard case .dataCorrupted(let context)? = bad else {
            Issue.record("expected .dataCorrupted, got \(String(describing: bad))")
            return
        }
        #expect(context.debugDescription.contains("\"yesterday\" is not an ISO 8601 date"))
        var seconds = JSONValueDecoder()
        seconds.dateCodingStrategy = .secondsSince1970
        #expect(try seconds.decode(Date.self, from: 10) == Date(timeIntervalSince1970: 10))
        #expect(try decoder.decode(Data.self, from: "AQID") == Data([1, 2, 3]))
        #expect(throws: DecodingError.self) { try decoder.decode(Data.self, from: "%%%") }
        #expect(try decoder.decode(URL.self, from: "https://example.com") == URL(string: "https://example.com"))
    }

    @Test func unkeyedContainersReportTheirEnd() throws {
        struct Pair: Decodable {
            var first: Int
            var second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        #expect(try JSONValueDecoder().decode(Pair.self, from: [1, 2]).second == 2)
        let error = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Pair.self, from: [1]) }
        guard case .valueNotFound(_, let context)? = error else {
            Issue.record("expected .valueNotFound, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["1"])
    }

    @Test func jsonValueDecodesAsItself() throws {
        let value: JSONValue = ["a": [1, 2.5, nil]]
        #expect(try JSONValueDecoder().decode(JSONValue.self, from: value) == value)
    }
}
