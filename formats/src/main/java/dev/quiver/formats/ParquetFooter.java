package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

/**
 * Reads a Parquet file's footer: row count, row groups, and each row group's per-column min/max
 * statistics. Only the footer is read (the last 8 bytes, then the Thrift {@code FileMetaData} they
 * point at), never the data.
 *
 * <p>Arrow's dataset library reads Parquet but does not expose row groups to Java, so Quiver
 * decodes the footer with the Parquet project's own Thrift classes ({@code
 * parquet-format-structures}) and keeps what it needs; statistics it cannot interpret safely are
 * left out (see {@link ParquetStats}).
 */
public final class ParquetFooter {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /**
   * One row group: its row count, uncompressed and compressed sizes, the file offset of its first
   * page (-1 if unknown), the statistics of the columns that have them (by dotted column path), and
   * the file offsets of the dictionary pages of the columns whose data pages all use their
   * dictionary (such a dictionary lists every distinct value of the column in the row group).
   */
  public record RowGroup(
      long rows,
      long bytes,
      long compressedBytes,
      long offset,
      Map<String, ColumnStats> columns,
      Map<String, Long> dictionaries) {
    public RowGroup {
      columns = Map.copyOf(columns);
      dictionaries = Map.copyOf(dictionaries);
    }
  }

  /** A file's footer. */
  public record Metadata(long rows, List<RowGroup> rowGroups) {
    public Metadata {
      rowGroups = List.copyOf(rowGroups);
    }
  }

  /** The file a footer was read from, as it was then: a rewritten file has another size or time. */
  private record Version(Path file, long size, FileTime modified) {}

  private static final int CACHED_FOOTERS = 4096;

  /**
   * Footers already read, by file version: registration (row counts, distinct-value bounds), the
   * planner's split pruning and the job's split assignment each need a table's footers, so without
   * it every query read them two or three times. Least recently used first out.
   */
  private static final Map<Version, Metadata> CACHE =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Version, Metadata> eldest) {
              return size() > CACHED_FOOTERS;
            }
          });

  private ParquetFooter() {}

  /**
   * Reads the footer of the Parquet file at {@code file}.
   *
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} if the file is missing, {@link
   *     ErrorCode#INVALID_FILE} if it is not a readable Parquet file
   */
  public static Metadata read(Path file) {
    requireNonNull(file, "file is null");
    Version version;
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      version =
          new Version(file.toAbsolutePath(), attributes.size(), attributes.lastModifiedTime());
    } catch (NoSuchFileException e) {
      throw new QuiverException(ErrorCode.FILE_NOT_FOUND, "File " + file + " does not exist", e);
    } catch (IOException e) {
      throw invalid(file, e.toString());
    }
    Metadata cached = CACHE.get(version);
    if (cached != null) {
      return cached;
    }
    Metadata metadata = readUncached(file);
    CACHE.put(version, metadata);
    return metadata;
  }

  private static Metadata readUncached(Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size < 12) {
        throw invalid(file, "the file is " + size + " bytes, too small for a Parquet file");
      }
      ByteBuffer tail = readFully(channel, size - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
      int footerLength = tail.getInt(0);
      if (!magicAt(tail, 4) || !magicAt(readFully(channel, 0, 4), 0)) {
        throw invalid(file, "the Parquet magic bytes are missing (truncated, or not Parquet)");
      }
      if (footerLength <= 0 || footerLength > size - 12) {
        throw invalid(file, "the footer length " + footerLength + " does not fit the file");
      }
      ByteBuffer footer = readFully(channel, size - 8 - footerLength, footerLength);
      return decode(footer.array());
    } catch (NoSuchFileException e) {
      throw new QuiverException(ErrorCode.FILE_NOT_FOUND, "File " + file + " does not exist", e);
    } catch (IOException e) {
      throw invalid(file, e.toString());
    } catch (RuntimeException e) {
      if (e instanceof QuiverException) {
        throw e;
      }
      throw invalid(file, "its footer cannot be decoded (" + e + ")");
    }
  }

  /**
   * Decodes a footer's bytes (the Thrift {@code FileMetaData} between a file's data and its footer
   * length), without the cache of {@link #read}: for callers that hold the bytes already, and for
   * benchmarks of the decoding.
   *
   * @throws RuntimeException if the bytes are not a footer
   */
  public static Metadata decode(byte[] footer) {
    requireNonNull(footer, "footer is null");
    FileMetaData metadata;
    try {
      metadata = Util.readFileMetaData(new ByteArrayInputStream(footer));
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    List<ParquetStats.Column> leaves = leaves(metadata.getSchema());
    List<RowGroup> rowGroups = new ArrayList<>(metadata.getRow_groupsSize());
    for (org.apache.parquet.format.RowGroup rowGroup : metadata.getRow_groups()) {
      rowGroups.add(rowGroup(rowGroup, leaves));
    }
    return new Metadata(metadata.getNum_rows(), rowGroups);
  }

  // The schema is a depth-first list of elements; leaves are the elements without children, in
  // the order of the column chunks of every row group.
  private static List<ParquetStats.Column> leaves(List<SchemaElement> schema) {
    List<ParquetStats.Column> leaves = new ArrayList<>();
    List<String> path = new ArrayList<>();
    List<Integer> remaining = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      SchemaElement element = schema.get(i);
      int children = element.isSetNum_children() ? element.getNum_children() : 0;
      if (i == 0) {
        remaining.add(children); // the root names the whole schema, not a column
        continue;
      }
      while (!remaining.isEmpty() && remaining.get(remaining.size() - 1) == 0) {
        remaining.remove(remaining.size() - 1);
        path.remove(path.size() - 1);
      }
      int last = remaining.size() - 1;
      remaining.set(last, remaining.get(last) - 1);
      if (children > 0) {
        path.add(element.getName());
        remaining.add(children);
      } else {
        String name =
            path.isEmpty() ? element.getName() : String.join(".", path) + "." + element.getName();
        leaves.add(new ParquetStats.Column(name, ParquetStats.leafType(element)));
      }
    }
    return leaves;
  }

  private static RowGroup rowGroup(
      org.apache.parquet.format.RowGroup rowGroup, List<ParquetStats.Column> leaves) {
    Map<String, ColumnStats> columns = new HashMap<>();
    Map<String, Long> dictionaries = new HashMap<>();
    long chunksCompressed = 0;
    long offset = Long.MAX_VALUE;
    List<ColumnChunk> chunks = rowGroup.getColumns();
    for (int i = 0; i < chunks.size(); i++) {
      ParquetStats.Column leaf = i < leaves.size() ? leaves.get(i) : null;
      ParquetStats.Chunk chunk = ParquetStats.chunk(chunks.get(i), leaf);
      chunksCompressed += chunk.compressedBytes();
      if (chunk.offset() >= 0) {
        offset = Math.min(offset, chunk.offset());
      }
      if (leaf != null && chunk.stats() != null) {
        columns.put(leaf.name(), chunk.stats());
      }
      if (leaf != null && chunk.fullDictionary() > 0) {
        dictionaries.put(leaf.name(), chunk.fullDictionary());
      }
    }
    long compressed =
        rowGroup.isSetTotal_compressed_size()
            ? rowGroup.getTotal_compressed_size()
            : chunksCompressed;
    return new RowGroup(
        rowGroup.getNum_rows(),
        rowGroup.getTotal_byte_size(),
        compressed,
        offset == Long.MAX_VALUE ? -1 : offset,
        columns,
        dictionaries);
  }

  /**
   * The number of values in the dictionary page at {@code offset} of {@code channel}'s file (read
   * from the page's header only, a few dozen bytes).
   *
   * @throws IOException if the bytes there are not a dictionary page header
   */
  static int dictionarySize(FileChannel channel, long offset) throws IOException {
    // A page header is small (types, sizes, the dictionary header; statistics live in data pages'
    // headers only): 256 bytes hold it, and a longer read would only waste the bytes after it.
    long available = channel.size() - offset;
    ByteBuffer bytes = readFully(channel, offset, (int) Math.min(256, available));
    PageHeader header = Util.readPageHeader(new ByteArrayInputStream(bytes.array()));
    if (header.getType() != PageType.DICTIONARY_PAGE || !header.isSetDictionary_page_header()) {
      throw new IOException("no dictionary page at offset " + offset);
    }
    return header.getDictionary_page_header().getNum_values();
  }

  private static ByteBuffer readFully(FileChannel channel, long position, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("unexpected end of file at " + (position + buffer.position()));
      }
    }
    return buffer.flip();
  }

  private static boolean magicAt(ByteBuffer buffer, int offset) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (buffer.get(offset + i) != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static QuiverException invalid(Path file, String reason) {
    return new QuiverException(
        ErrorCode.INVALID_FILE, "Cannot read Parquet file " + file + ": " + reason);
  }
}
