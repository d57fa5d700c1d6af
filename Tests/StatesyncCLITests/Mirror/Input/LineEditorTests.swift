import Testing
@testable import statesync

@Suite struct LineEditorTests {
    @Test func editsAndSubmits() {
        var editor = LineEditor()
        #expect(editor.apply(.text("add Milk")) == .edited)
        #expect(editor.apply(.backspace) == .edited)
        #expect(editor.text == "add Mil")
        #expect(editor.apply(.deleteWord) == .edited)
        #expect(editor.text == "add ")
        #expect(editor.apply(.text("Eggs")) == .edited)
        #expect(editor.apply(.endOfInput) == .none)   // Ctrl-D quits only on an empty line
        #expect(editor.apply(.enter) == .submit("add Eggs"))
        #expect(editor.text.isEmpty)
        #expect(editor.apply(.backspace) == .none)
        #expect(editor.apply(.text("x")) == .edited)
        #expect(editor.apply(.clearLine) == .edited)
        #expect(editor.text.isEmpty)
        #expect(editor.apply(.endOfInput) == .quit)
        #expect(editor.apply(.interrupt) == .quit)
    }
}
