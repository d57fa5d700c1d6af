import StateSyncCore

/// Checks path templates once their placeholders are filled in.
enum PathCheck {
    static func validate(_ template: Template) throws(LoadScenarioError) {
        do {
            _ = try JSONPointer(parsing: template.render(client: 0, random: 0, sequence: 1))
        } catch {
            throw .invalidPath(template.description, reason: "\(error)")
        }
    }
}
