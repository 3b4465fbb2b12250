/**
 * The ELN Consortium's JSON Schema for ro-crate-metadata.json, used by the .eln test as the consortium's own
 * validator does (tests/checks.py, checkSchema).
 *
 * Source: https://github.com/TheELNConsortium/TheELNFileFormat/blob/401e7aa53da81446811a70e4902f69dae8a1d818/tests/schema.json
 * Licence of the source (MIT):
 *
 * MIT License
 *
 * Copyright (c) 2022 The ELN Consortium
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */
export const CONSORTIUM_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    '@context': {
      type: ['string', 'array'],
      format: 'uri',
    },
    '@graph': {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          '@id': {
            type: 'string',
          },
          '@type': {
            type: ['string', 'array'],
          },
          about: {
            type: 'object',
            properties: {
              '@id': {
                type: 'string',
              },
            },
          },
          conformsTo: {
            type: 'object',
            properties: {
              '@id': {
                type: 'string',
                format: 'uri',
              },
            },
          },
          dateCreated: {
            type: 'string',
            format: 'date-time',
          },
          sdPublisher: {
            type: 'object',
            properties: {
              '@id': {
                type: 'string',
              },
            },
          },
          version: {
            type: 'string',
          },
          author: {
            type: 'object',
            properties: {
              '@id': {
                type: 'string',
              },
            },
          },
          dateModified: {
            type: 'string',
            format: 'date-time',
          },
          name: {
            type: 'string',
          },
          encodingFormat: {
            type: 'string',
          },
          url: {
            type: 'string',
            format: 'uri',
          },
          genre: {
            type: 'string',
          },
          creativeWorkStatus: {
            type: 'string',
          },
          identifier: {
            type: 'string',
          },
          keywords: {
            type: 'string',
          },
          hasPart: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                '@id': {
                  type: 'string',
                },
              },
            },
          },
          comment: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                '@id': {
                  type: 'string',
                },
                '@type': {
                  type: ['string', 'array'],
                },
                dateCreated: {
                  type: 'string',
                  format: 'date-time',
                },
                text: {
                  type: 'string',
                },
                author: {
                  type: 'object',
                  properties: {
                    '@id': {
                      type: 'string',
                    },
                  },
                },
              },
            },
          },
        },
        required: ['@id', '@type'],
      },
    },
  },
  required: ['@context', '@graph'],
} as const;
