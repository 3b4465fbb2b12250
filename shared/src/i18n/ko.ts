import type { SharedMessages } from './en.js';

/** 화면과 서버의 인쇄물(PDF, 렌더링된 노트)이 함께 쓰는 한국어 문자열. */
const ko: SharedMessages = {
  list: {
    number: '번호',
  },
  project: {
    leader: '책임자',
    participants: '참여자',
    statusLabel: '상태',
    created: '생성일',
    status: { ING: '진행 중', C: '종료' },
  },
  note: {
    labNoteNumber: '연구노트 번호',
    labNoteNo: '연구노트 번호',
    title: '제목',
    writer: '작성자',
    version: '버전',
    versionValue: '버전 {{version}}',
    notSaved: '아직 저장 안 됨',
    importedAuthors: '{{names}} (가져옴)',
    importedBy: '가져온 사람: {{name}}',
    unknownAuthor: '작성자 미상',
    statusLabel: '상태',
    status: { W: '작성 중', R: '서명 요청됨', T: '서명 완료', F: '종료' },
  },
  signature: {
    title: '서명',
    none: '이 노트에 요청된 서명이 아직 없습니다.',
    meaningLabel: '의미',
    meaning: { reviewer: '검토자', participant: '참여자' },
    status: { R: '대기 중', T: '서명 완료', F: '서명 거절', C: '종료 시 취소됨' },
    awaiting: '서명 대기 중',
    printedName: '서명 이름',
    comment: '의견',
    broken: '손상됨',
    brokenExplained: '버전 {{version}}의 저장된 내용이 서명한 내용과 더 이상 일치하지 않습니다. 이 서명은 신뢰할 수 없습니다.',
  },
  content: {
    untitledImage: '제목 없는 이미지',
    attachment: '첨부 파일',
    schemaField: '필드',
    schemaValue: '값',
    schemaEmpty: '이 스키마에는 항목이 없습니다.',
    schemaInvalid: '이 스키마 블록은 표시할 수 없습니다.',
    schemaRevision: '리비전 {{revision}}',
    dropboxChosen: '{{title}}의 코드 {{code}}',
    dropboxUnchosen: '드롭박스 {{title}}: 아직 선택하지 않음',
    chartMissing: '이 차트의 원본 표가 삭제되었거나, 범위가 더 이상 표 안에 있지 않습니다.',
    chartTypes: {
      bar: '막대형',
      horizontal: '가로 막대형',
      line: '꺾은선형',
      doughnut: '도넛형',
      pie: '원형',
      radar: '방사형',
      scatter: '분산형',
    },
  },
  history: {
    changes: {
      added: '추가 {{count}}',
      changed: '변경 {{count}}',
      removed: '삭제 {{count}}',
      moved: '이동 {{count}}',
      none: '변경 없음',
      separator: ', ',
    },
  },
};

export default ko;
