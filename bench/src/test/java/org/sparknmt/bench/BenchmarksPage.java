package org.sparknmt.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What BENCHMARKS.md must not say, and the anchors its headings get on GitHub: the scripts/bench*
 * writers fill it from their runs' results, so a "?", a negative time or this machine's own path in it
 * is a writer that read a result wrong.
 */
final class BenchmarksPage {
  /** A lone "?" where a writer found no value ("vocabulary ? (? types)"); a question ends a word. */
  private static final Pattern PLACEHOLDER = Pattern.compile("(?<![\\w?])\\?(?![\\w?])");
  /** A negative number of seconds, in prose or alone in a table cell (a time column's cell). */
  private static final Pattern NEGATIVE_TIME = Pattern.compile(
      "(?<![\\w.)])-\\d+(?:\\.\\d+)?(?: ?(?:s|ms|min|seconds)\\b|(?= *\\|))");
  /**
   * An absolute path or file URI outside the system's own folders: the folder of the checkout that
   * ran, which says nothing on another machine (the page gives paths relative to the repository, and
   * ../shared/ for the shared data). /usr, /proc and the like name the same files on any Debian host.
   */
  private static final Pattern MACHINE_PATH = Pattern.compile(
      "(?<![\\w.)\\]/~:-])(?:file:)?/+(?!(?:usr|proc|etc|dev|sys|bin|lib)/)[A-Za-z_][\\w.+-]*/[\\w.+-]");
  private static final List<Map.Entry<String, Pattern>> CHECKS = List.of(
      Map.entry("a \"?\" for a missing value", PLACEHOLDER), Map.entry("a negative time", NEGATIVE_TIME),
      Map.entry("a path of the machine that ran", MACHINE_PATH));
  private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *#*$", Pattern.MULTILINE);
  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)]\\([^)]*\\)");

  private BenchmarksPage() {}

  /** Each line of page that holds a defect, as "line N: what (the match): ...its context...". */
  static List<String> defects(String page) {
    List<String> defects = new ArrayList<>();
    String[] lines = page.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      // the HTML comments are the sections' markers, code in them is not the page's text
      if (line.startsWith("<!--")) {
        continue;
      }
      for (Map.Entry<String, Pattern> check : CHECKS) {
        Matcher m = check.getValue().matcher(line);
        if (m.find()) {
          String context = line.substring(Math.max(0, m.start() - 40), Math.min(line.length(), m.end() + 40));
          defects.add("line " + (i + 1) + ": " + check.getKey() + " (\"" + m.group() + "\"): ..." + context + "...");
        }
      }
    }
    return defects;
  }

  /** The anchors GitHub gives the page's headings, in order, duplicates numbered as GitHub numbers them. */
  static Set<String> anchors(String page) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : page.split("\n")) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      Matcher m = HEADING.matcher(line);
      if (!fenced && m.matches()) {
        String slug = slug(m.group(1));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return anchors;
  }

  /**
   * GitHub's anchor of one heading: the text as rendered (a link's text, no markup), lower case,
   * every character but letters, digits, "-", "_" and spaces dropped, spaces made "-".
   */
  static String slug(String heading) {
    String text = INLINE_LINK.matcher(heading).replaceAll("$1");
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_ -]", "").replace(' ', '-');
  }
}
