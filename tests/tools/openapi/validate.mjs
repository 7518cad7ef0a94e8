// node validate.mjs FILE: checks an OpenAPI document against the official JSON schema of its version (3.0, 3.1, 3.2)
// and that every $ref resolves. Prints one JSON line {valid, version, errors}; exits 0 when valid, 1 otherwise.
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.mjs openapi.json');
  process.exit(2);
}
const validator = new Validator();
const result = await validator.validate(JSON.parse(await readFile(file, 'utf8')));
let errors = result.valid ? [] : result.errors;
if (result.valid) {
  try {
    validator.resolveRefs();
  } catch (e) {
    errors = [{ message: `unresolved reference: ${e.message}` }];
  }
}
console.log(JSON.stringify({ valid: errors.length === 0, version: validator.version, errors }));
process.exit(errors.length === 0 ? 0 : 1);
