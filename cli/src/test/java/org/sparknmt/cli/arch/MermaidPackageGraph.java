package org.sparknmt.cli.arch;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arrows of a package graph as docs/architecture.md draws them in Mermaid: {@code a --> b & c},
 * packages (or modules) named relative to a root package, which itself is {@code root}.
 */
record MermaidPackageGraph(Map<String, Set<String>> arrows) {
  private static final String START = "<!-- package-graph -->";
  private static final String END = "<!-- /package-graph -->";
  private static final Pattern ARROW = Pattern.compile("^\\s*(\\w+)\\s*-->\\s*(.+?)\\s*$");

  /** The graph between the page's {@code <!-- package-graph -->} markers. */
  static MermaidPackageGraph parse(String page) {
    int start = page.indexOf(START);
    int end = page.indexOf(END);
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("the page has no graph between " + START + " and " + END);
    }
    Map<String, Set<String>> arrows = new TreeMap<>();
    for (String line : page.substring(start + START.length(), end).split("\n")) {
      Matcher m = ARROW.matcher(line);
      if (m.matches()) {
        for (String to : m.group(2).split("&")) {
          arrows.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(to.trim());
        }
      }
    }
    return new MermaidPackageGraph(arrows);
  }

  /** {@code graph}'s edges among the packages of {@code root}, named as the page names them. */
  static MermaidPackageGraph of(PackageGraph graph, String root) {
    Map<String, Set<String>> arrows = new TreeMap<>();
    graph.edges().forEach((from, targets) -> {
      for (String to : targets) {
        arrows.computeIfAbsent(name(from, root), k -> new TreeSet<>()).add(name(to, root));
      }
    });
    return new MermaidPackageGraph(arrows);
  }

  /** The arrow lines, to paste into the page. */
  String render() {
    StringBuilder lines = new StringBuilder();
    arrows.forEach((from, targets) -> lines.append("  ").append(from).append(" --> ")
        .append(String.join(" & ", targets)).append('\n'));
    return lines.toString();
  }

  /** A package relative to {@code root}; {@code root} itself is {@code root}, and with an empty root names stay whole. */
  private static String name(String pkg, String root) {
    if (root.isEmpty()) {
      return pkg;
    }
    return pkg.equals(root) ? "root" : pkg.substring(root.length() + 1);
  }
}
