/// The inspector's page (placeholder until the script lands).
enum InspectorPage {
  static let html = "<!DOCTYPE html><title>dynd inspector</title>"
}
