import JSON
import Wire

extension Double {
  /// The number as dynctl has always sent it: with at most 9 decimals (what
  /// `JSONValue.jsonText` writes), so that the daemon gets the same values as before requests
  /// were typed, and traces keep the same text. A non-finite number becomes 0, which is what
  /// was sent for it.
  var asSent: Double { Double(JSONValue.number(self).jsonText) ?? 0 }
}
