package dev.quiver.flink.slt;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The {@code .slt} files on the test classpath ({@code src/test/resources/slt}), parsed. */
final class SltFiles {
  private SltFiles() {}

  /** Every {@code slt/*.slt} file by name, in name order, as records. */
  static Map<String, List<SltRecord>> all() throws IOException, URISyntaxException {
    URL url = SltFiles.class.getResource("/slt");
    if (url == null) {
      throw new IllegalStateException("no slt directory on the test classpath");
    }
    List<Path> paths = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      files.filter(p -> p.getFileName().toString().endsWith(".slt")).sorted().forEach(paths::add);
    }
    Map<String, List<SltRecord>> records = new LinkedHashMap<>();
    for (Path path : paths) {
      String name = path.getFileName().toString();
      records.put(name, SltParser.parse(name, Files.readString(path)));
    }
    return records;
  }
}
