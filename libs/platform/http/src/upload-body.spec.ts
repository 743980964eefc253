import { ProblemError } from '@dsar/platform/errors';
import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { uploadBodyTypeProblem } from './upload-body';

describe('uploadBodyTypeProblem', () => {
  it.each(['multipart/form-data; boundary=----x', 'Multipart/Form-Data', 'multipart/mixed;boundary=a', 'multipart/related ; type=x'])(
    'refuses a form, %s, with a 415 that says to send the raw bytes',
    (type) => {
      const problem = uploadBodyTypeProblem(type, 'x-artifact-content-type');
      expect(problem).toBeInstanceOf(ProblemError);
      expect(problem?.status).toBe(415);
      expect(problem?.definition.code).toBe('SVC-BE-1104');
      expect(problem?.message).toMatch(/raw bytes.*application\/octet-stream.*--data-binary.*x-artifact-content-type/);
    },
  );

  it.each(['application/json', 'application/problem+json; charset=utf-8', 'APPLICATION/JSON'])('refuses a command body, %s', (type) => {
    expect(uploadBodyTypeProblem(type, 'x-evidence-content-type')?.message).toMatch(/application\/octet-stream; its own media type goes in x-evidence-content-type/);
  });

  it.each([undefined, 'application/octet-stream', 'application/pdf', 'image/png', 'text/plain; charset=utf-8', 'application/jsonl', 'multipartx/form-data', 'text/multipart/x'])(
    'takes %s as a file',
    (type) => {
      expect(uploadBodyTypeProblem(type, 'x-artifact-content-type')).toBeUndefined();
    },
  );

  it('judges a long hostile Content-Type in linear time', () => {
    const hostile = (n: number) => `multipart/${'a'.repeat(n)}!`;
    expect(uploadBodyTypeProblem(hostile(100_000), 'x')).toBeUndefined();
    expectLinearGrowth(hostile, (type) => uploadBodyTypeProblem(type, 'x'), 25_000);
  });
});
