import Testing
@testable import StateSyncLoad

@Suite struct TemplateTests {
    @Test func fillsEveryPlaceholderAndKeepsOtherBraces() {
        let template = Template(#"{"type":"x","c":"c{n}","i":{i},"s":"{seq}{other}"}"#)
        #expect(template.render(client: 7, random: 42, sequence: 3) == #"{"type":"x","c":"c42","i":7,"s":"3{other}"}"#)
    }

    @Test func plainTextIsUnchanged() {
        let template = Template("/counters")
        #expect(template.render(client: 1, random: 2, sequence: 3) == "/counters")
    }
}

@Suite struct ActionTemplateTests {
    @Test func derivesTheCounterPathOfIncrement() throws {
        let action = try ActionTemplate(#"{"type":"increment","counter":"c{n}","by":1}"#)
        #expect(action.path.description == "/counters/c{n}")
        #expect(action.path.render(client: 0, random: 5, sequence: 1) == "/counters/c5")
    }

    @Test func escapesPointerCharactersOfTheCounterName() throws {
        let action = try ActionTemplate(#"{"type":"increment","counter":"a/b~c"}"#)
        #expect(action.path.description == "/counters/a~1b~0c")
    }

    @Test func otherActionsChangeTheWholeStateUnlessTold() throws {
        #expect(try ActionTemplate(#"{"type":"postMessage","text":"hi {seq}"}"#).path.description == "")
        #expect(try ActionTemplate(#"{"type":"postMessage","text":"hi"}"#, path: "/chat").path.description == "/chat")
    }

    @Test func placeholdersOutsideStringsAreAllowed() throws {
        let action = try ActionTemplate(#"{"type":"increment","counter":"hits","by":{n}}"#)
        #expect(action.action.render(client: 0, random: 3, sequence: 1).contains(#""by":3"#))
        #expect(action.path.description == "")
    }

    @Test(arguments: [#"{"type":1}"#, "[1,2]", "{nope", #"{"counter":"hits"}"#])
    func refusesWhatIsNotAnAction(_ text: String) {
        #expect(throws: LoadScenarioError.self) { try ActionTemplate(text) }
    }

    @Test func refusesAnActionPathThatIsNotAPointer() {
        #expect(throws: LoadScenarioError.self) { try ActionTemplate(#"{"type":"postMessage"}"#, path: "chat") }
    }
}

@Suite struct LoadScenarioTests {
    @Test func defaultsAreValid() throws {
        try LoadScenario().validate()
    }

    @Test func refusesInconsistentSettings() {
        #expect(throws: LoadScenarioError.invalidValue("writers", "5", reason: "must be from 0 to the number of clients (2)")) {
            try LoadScenario(clients: 2, writers: 5).validate()
        }
        #expect(throws: LoadScenarioError.self) { try LoadScenario(clients: 0).validate() }
        #expect(throws: LoadScenarioError.self) { try LoadScenario(writers: 0, rate: 5).validate() }
        #expect(throws: LoadScenarioError.self) { try LoadScenario(subscriptions: [Template("counters")]).validate() }
        #expect(throws: LoadScenarioError.self) { try LoadScenario(duration: .zero).validate() }
    }

    @Test func theReconnectStormFallsWithinTheRun() throws {
        var scenario = LoadScenario(duration: .seconds(10))
        scenario.reconnectStormAt = .seconds(0)
        try scenario.validate()
        scenario.reconnectStormAt = .milliseconds(9_999)
        try scenario.validate()
        scenario.reconnectStormAt = .seconds(10)
        #expect(throws: LoadScenarioError.invalidValue("reconnect-storm", "10.0 seconds", reason: "must be from 0 to less than the run's duration (10.0 seconds)")) {
            try scenario.validate()
        }
        scenario.reconnectStormAt = .seconds(-1)
        #expect(throws: LoadScenarioError.self) { try scenario.validate() }
    }
}
