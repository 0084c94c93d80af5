// validate.mjs SPEC: swagger-parser's validation of an OpenAPI document
// (structure against the OpenAPI 3.1 schema, every $ref resolved).
// Prints "valid" and exits 0, or the error and exits 1.
import SwaggerParser from "@apidevtools/swagger-parser";

try {
  await SwaggerParser.validate(process.argv[2]);
  console.log("swagger-parser: valid");
} catch (e) {
  console.log("swagger-parser: " + e.message);
  process.exit(1);
}
