package org.sparknmt.cli.arch;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/** Which package depends on which, as the JDK's {@code jdeps} reads it from compiled classes. */
final class PackageGraph {
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");

  private final Map<String, Set<String>> edges;

  PackageGraph(Map<String, Set<String>> edges) {
    this.edges = edges;
  }

  /** The dependencies among packages named {@code prefix} and below in the class folders {@code classes}. */
  static PackageGraph of(List<Path> classes, String prefix) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps")
        .orElseThrow(() -> new IllegalStateException("this JVM has no jdeps: run the tests on a JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none", "-e",
        Pattern.quote(prefix) + "(\\..*)?"));
    classes.forEach(folder -> args.add(folder.toString()));
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    if (status != 0) {
      throw new IllegalStateException("jdeps " + classes + " exited " + status + ": " + err);
    }
    Map<String, Set<String>> edges = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (m.find() && m.group(2).startsWith(prefix) && !m.group(1).equals(m.group(2))) {
        edges.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
      }
    }
    return new PackageGraph(edges);
  }

  Map<String, Set<String>> edges() {
    return edges;
  }

  /** The graph between the groups {@code group} puts packages in, without a group's edges to itself. */
  PackageGraph grouped(Function<String, String> group) {
    Map<String, Set<String>> grouped = new TreeMap<>();
    edges.forEach((from, targets) -> {
      for (String to : targets) {
        if (!group.apply(from).equals(group.apply(to))) {
          grouped.computeIfAbsent(group.apply(from), k -> new TreeSet<>()).add(group.apply(to));
        }
      }
    });
    return new PackageGraph(grouped);
  }

  /** The groups of packages that depend on each other in a circle (Tarjan's strongly connected components of two or more). */
  List<Set<String>> cycles() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    List<Set<String>> cycles = new ArrayList<>();
    Set<String> nodes = new TreeSet<>(edges.keySet());
    edges.values().forEach(nodes::addAll);
    for (String node : nodes) {
      if (!index.containsKey(node)) {
        connect(node, index, low, stack, cycles);
      }
    }
    return cycles;
  }

  private void connect(String node, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      List<Set<String>> cycles) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    for (String next : edges.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        connect(next, index, low, stack, cycles);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (stack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        cycles.add(component);
      }
    }
  }
}
