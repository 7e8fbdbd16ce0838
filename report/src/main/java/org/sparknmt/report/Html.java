package org.sparknmt.report;

import java.util.List;

/** The few pieces of HTML the run report is made of, with escaping. */
final class Html {
  private final StringBuilder body = new StringBuilder();

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  Html heading(int level, String text) {
    body.append("<h").append(level).append('>').append(escape(text)).append("</h").append(level).append(">\n");
    return this;
  }

  Html paragraph(String text) {
    body.append("<p>").append(escape(text)).append("</p>\n");
    return this;
  }

  /** A line of preformatted text, e.g. a sentence or its tokens. */
  Html code(String label, String text) {
    body.append("<p><b>").append(escape(label)).append("</b> <code>").append(escape(text)).append("</code></p>\n");
    return this;
  }

  /** An image by its path relative to the page, linked to itself so that a click shows it at full size. */
  Html image(String relative, String alt) {
    String src = escape(relative);
    body.append("<a href=\"").append(src).append("\"><img src=\"").append(src).append("\" alt=\"")
        .append(escape(alt)).append("\"></a>\n");
    return this;
  }

  Html table(List<String> header, List<List<String>> rows) {
    body.append("<table>\n<tr>");
    header.forEach(h -> body.append("<th>").append(escape(h)).append("</th>"));
    body.append("</tr>\n");
    for (List<String> row : rows) {
      body.append("<tr>");
      row.forEach(cell -> body.append("<td>").append(escape(cell)).append("</td>"));
      body.append("</tr>\n");
    }
    body.append("</table>\n");
    return this;
  }

  /** A collapsed block of preformatted text. */
  Html details(String summary, String text) {
    body.append("<details><summary>").append(escape(summary)).append("</summary><pre>").append(escape(text))
        .append("</pre></details>\n");
    return this;
  }

  String page(String title) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title)
        + "</title>\n<style>\n"
        + "body { font-family: sans-serif; margin: 2em; max-width: 1500px; color: #222; }\n"
        + "h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }\n"
        + "table { border-collapse: collapse; margin: .5em 0 1em; }\n"
        + "th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }\n"
        + "th { background: #f3f3f3; } td:first-child { text-align: left; }\n"
        + "img { max-width: 100%; margin: .3em; border: 1px solid #eee; vertical-align: top; }\n"
        + "code { background: #f6f6f6; padding: 0 .3em; }\n"
        + "</style>\n</head>\n<body>\n<h1>" + escape(title) + "</h1>\n" + body + "</body>\n</html>\n";
  }
}
