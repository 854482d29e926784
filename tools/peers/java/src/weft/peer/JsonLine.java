package weft.peer;

import java.util.Locale;

/** The protocol's line for one run (tools/peers/peer_cli.cpp's outcome_line). */
final class JsonLine {
  /** A JSON string literal: quotes, backslashes and control characters escaped. */
  static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /** error: null for a verified run, else why it is wrong (then "verified":false). */
  static String of(String workload, int workers, double seconds, String result, String error) {
    StringBuilder line = new StringBuilder("{\"peer\":\"java\",\"workload\":")
        .append(quote(workload))
        .append(",\"workers\":").append(workers)
        .append(",\"seconds\":").append(String.format(Locale.ROOT, "%.9f", seconds))
        .append(",\"result\":").append(quote(result))
        .append(",\"verified\":").append(error == null);
    if (error != null) line.append(",\"error\":").append(quote(error));
    return line.append('}').toString();
  }

  private JsonLine() {}
}
